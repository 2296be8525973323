// The generic API's answers to `POST /br-codes/resolve` (CONTRACT §4) as resolutions. Resolving
// moves no money, so the lean is toward "ask again": only a 200 in this API's shape resolves,
// and only a 4xx in its own words (`{ code }`) refuses; anything else is unknown.
import { z } from "zod";
import { pixKeyTypes } from "../lib/ids.ts";
import {
  type BrCodeResolution,
  resolvedAmountCentsSchema,
  resolvedCitySchema,
  resolvedKeyOf,
  resolvedNameSchema,
  resolvedTxidSchema,
} from "./br-code-resolution.ts";
import { isCredentialsRefusal, type ProviderExchange, parseBody, usableAnswer } from "./classify.ts";
import type { ProviderEvidence } from "./port.ts";

const resolvedBodySchema = z.object({
  kind: z.literal("dynamic"),
  pix_key: z.string().min(1).max(100),
  pix_key_type: z.enum(pixKeyTypes),
  amount_cents: resolvedAmountCentsSchema.nullable(),
  merchant_name: resolvedNameSchema.nullable(),
  merchant_city: resolvedCitySchema.nullable(),
  txid: resolvedTxidSchema.nullable(),
});

const refusalBodySchema = z.object({ code: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/) });

/** "Not now" and "not you": no verdict on the code. */
const inconclusiveStatuses: ReadonlySet<number> = new Set([408, 409, 425, 429]);

export function classifyResolve(exchange: ProviderExchange, evidence: ProviderEvidence): BrCodeResolution {
  const answer = usableAnswer(exchange);
  if (!answer.usable) return { kind: "unknown", why: answer.why, evidence };
  const { httpStatus, body } = answer;
  if (httpStatus === 200) {
    const resolved = parseBody(resolvedBodySchema, body);
    if (resolved === null) return { kind: "unknown", why: "malformed_body", evidence };
    const key = resolvedKeyOf(resolved.pix_key, resolved.pix_key_type);
    if (key === null) return { kind: "unknown", why: "invalid_key", evidence };
    return {
      kind: "resolved",
      payment: {
        ...key,
        amountCents: resolved.amount_cents,
        merchantName: resolved.merchant_name,
        merchantCity: resolved.merchant_city,
        txid: resolved.txid,
      },
      evidence,
    };
  }
  if (httpStatus >= 400 && httpStatus < 500 && !inconclusiveStatuses.has(httpStatus) && !isCredentialsRefusal(httpStatus)) {
    const refusal = parseBody(refusalBodySchema, body);
    if (refusal !== null) return { kind: "refused", code: refusal.code, evidence };
    return { kind: "unknown", why: `http_${httpStatus}_not_this_api`, evidence };
  }
  return { kind: "unknown", why: `http_${httpStatus}`, evidence };
}
