// Whom a POST /v1/transfers pays and how much (CONTRACT §2): a key (pix_key, pix_key_type), or a
// pasted BR Code. A static code names its key; a dynamic one is resolved through the provider
// first, outside any transaction, so the rules and the hold see the amount it asks for. A
// replay of a dynamic code is not resolved again: a single-use code, once paid, would be refused.
// A dynamic code cannot be scheduled: its charge may change or end before the day comes.
import type { Context } from "hono";
import type { PixKeyType } from "../lib/ids.ts";
import { normalisePixKey } from "../pix/key.ts";
import { keyedTransferOf } from "../transfers/reads.ts";
import type { OpenBrCode } from "../transfers/store.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { parseBrCodeInput, type ReadBrCode, resolveDynamicBrCode } from "./br-code-input.ts";
import { withRequestDb } from "./db.ts";
import { requestFingerprint } from "./fingerprint.ts";
import { validationProblem } from "./validation.ts";

export interface PayeeFields {
  amount_cents?: number | undefined;
  pix_key?: string | undefined;
  pix_key_type?: PixKeyType | undefined;
  br_code?: string | undefined;
}

export interface Payee {
  amountCents: number;
  pixKey: string;
  pixKeyType: PixKeyType;
  brCode: OpenBrCode | null;
  requestFingerprint: string;
}

export type PayeeResult = { ok: true; payee: Payee } | { ok: false; response: Response };

export async function payeeOf(
  c: Context<AppEnv>,
  body: PayeeFields,
  description: string | null,
  idempotencyKey: string,
  scheduled: boolean,
): Promise<PayeeResult> {
  if (body.br_code === undefined) return keyPayee(c, body, description);
  const parsed = parseBrCodeInput(c, body.br_code);
  if (!parsed.ok) return parsed;
  if (parsed.kind === "dynamic" && scheduled) {
    const message = "a dynamic BR Code cannot be scheduled: its charge is paid as it is when the Pix leaves";
    return {
      ok: false,
      response: problem(c, 400, { type: "invalid-br-code", detail: message, errors: [{ field: "br_code", message }] }),
    };
  }
  // The request as the client wrote it (the code trimmed, its amount as given): the same
  // request again is a replay, whatever the provider would answer now.
  const text = parsed.kind === "static" ? parsed.code.text : parsed.text;
  const fingerprint = await requestFingerprint(["br_code", text, body.amount_cents ?? null, description]);
  if (parsed.kind === "static") return codePayee(c, parsed.code, body.amount_cents, fingerprint);

  const accountId = c.get("accountId");
  const known = await withRequestDb(c, (db) => keyedTransferOf(db, accountId, idempotencyKey));
  if (known.outcome === "account_not_found")
    return { ok: false, response: problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." }) };
  if (known.outcome === "found") {
    // The first transfer answers (or refuses a different body as key_reused): its own values stand in.
    const { transfer } = known;
    const brCode = { text: parsed.text, kind: "dynamic", merchantName: null, merchantCity: null } as const;
    return { ok: true, payee: { ...transfer, brCode, requestFingerprint: fingerprint } };
  }
  const resolved = await resolveDynamicBrCode(c, parsed);
  if (!resolved.ok) return resolved;
  return codePayee(c, resolved.code, body.amount_cents, fingerprint);
}

async function keyPayee(c: Context<AppEnv>, body: PayeeFields, description: string | null): Promise<PayeeResult> {
  // The body schema requires all three when br_code is absent.
  const { amount_cents: amountCents, pix_key: rawKey, pix_key_type: pixKeyType } = body;
  if (amountCents === undefined || rawKey === undefined || pixKeyType === undefined) {
    return { ok: false, response: validationProblem(c, [{ field: "", message: "amount_cents, pix_key and pix_key_type, or br_code" }]) };
  }
  const key = normalisePixKey(pixKeyType, rawKey);
  if (!key.ok) return { ok: false, response: validationProblem(c, [{ field: "pix_key", message: key.message }]) };
  const fingerprint = await requestFingerprint([amountCents, key.key, pixKeyType, description]);
  return { ok: true, payee: { amountCents, pixKey: key.key, pixKeyType, brCode: null, requestFingerprint: fingerprint } };
}

/** The code's amount stands when the body gives none; both given must agree; neither is a 400. */
function codePayee(c: Context<AppEnv>, code: ReadBrCode, givenCents: number | undefined, requestFingerprint: string): PayeeResult {
  if (code.amountCents !== null && givenCents !== undefined && givenCents !== code.amountCents) {
    return {
      ok: false,
      response: validationProblem(c, [
        { field: "amount_cents", message: `must equal the BR Code's amount, ${code.amountCents}, or be omitted` },
      ]),
    };
  }
  const amountCents = code.amountCents ?? givenCents;
  if (amountCents === undefined) {
    return { ok: false, response: validationProblem(c, [{ field: "amount_cents", message: "required: this BR Code carries no amount" }]) };
  }
  const brCode: OpenBrCode = {
    text: code.text,
    kind: code.kind,
    // A dynamic code's merchant is the provider's word, shown by the preview, not kept (CONTRACT §2).
    merchantName: code.kind === "static" ? code.merchantName : null,
    merchantCity: code.kind === "static" ? code.merchantCity : null,
  };
  return { ok: true, payee: { amountCents, pixKey: code.pixKey, pixKeyType: code.pixKeyType, brCode, requestFingerprint } };
}
