// The generic API's directory answers (CONTRACT §4, `GET /dict/{key}`) as outcomes. Untrusted
// like every provider answer: a hit must carry a well-formed owner, and only a 404 in JSON (the
// API talking, not a gateway's HTML page) is a miss, since a miss costs the payer 20 lookups.
import { z } from "zod";
import { type ProviderExchange, parseBody, usableAnswer } from "./classify.ts";
import type { LookupOutcome, ProviderEvidence } from "./port.ts";

/** Shown to the payer (the institution as is, the rest masked): plain text, bounded. */
const shownText = z
  .string()
  .trim()
  .min(1)
  .max(140)
  .regex(/^[^\p{Cc}\p{Cs}]+$/u);

const ownerSchema = z.object({
  name: shownText,
  document: z.string().regex(/^[0-9A-Za-z./-]{11,18}$/),
  ispb: z.string().regex(/^\d{8}$/),
  institution: shownText,
});

export function classifyLookup(exchange: ProviderExchange, evidence: ProviderEvidence): LookupOutcome {
  const answer = usableAnswer(exchange);
  if (!answer.usable) return { kind: "unknown", why: answer.why, evidence };
  if (answer.httpStatus === 404) {
    return answer.body.kind === "json" ? { kind: "not_found", evidence } : { kind: "unknown", why: "http_404_not_this_api", evidence };
  }
  if (answer.httpStatus !== 200) return { kind: "unknown", why: `http_${answer.httpStatus}`, evidence };
  const owner = parseBody(ownerSchema, answer.body);
  if (owner === null) return { kind: "unknown", why: "malformed_body", evidence };
  return { kind: "found", owner, evidence };
}
