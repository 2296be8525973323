// The generic API's contestation answers (CONTRACT §4) as outcomes. Untrusted like every provider
// answer: only a 2xx with a well-formed body says anything; everything else is unknown, and the
// contestation's object asks again with backoff (a refused hand-over is a person's to look at).
import { z } from "zod";
import { contestationOutcomes } from "../saga/contestations.ts";
import { type ProviderExchange, parseBody, usableAnswer } from "./classify.ts";
import type { ContestationStatusOutcome, ContestOutcome, ProviderEvidence } from "./port.ts";

/** A provider's reference: short and plain, since operators read it and it goes into a URL. */
export const pspRefSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,200}$/);

const decisionSchema = z.object({ id: pspRefSchema, status: z.enum(["submitted", ...contestationOutcomes]) });
/** A repeat of the hand-over answers the same contestation, perhaps decided by then: asking reads it. */
const takenSchema = decisionSchema;

export function classifyContest(exchange: ProviderExchange, evidence: ProviderEvidence): ContestOutcome {
  const answer = usableAnswer(exchange);
  if (!answer.usable) return { kind: "unknown", why: answer.why, evidence };
  if (answer.httpStatus !== 200 && answer.httpStatus !== 201) return { kind: "unknown", why: `http_${answer.httpStatus}`, evidence };
  const taken = parseBody(takenSchema, answer.body);
  if (taken === null) return { kind: "unknown", why: "malformed_body", evidence };
  return { kind: "submitted", pspRef: taken.id, evidence };
}

export function classifyDecision(pspRef: string, exchange: ProviderExchange, evidence: ProviderEvidence): ContestationStatusOutcome {
  const answer = usableAnswer(exchange);
  if (!answer.usable) return { kind: "unknown", why: answer.why, evidence };
  if (answer.httpStatus !== 200) return { kind: "unknown", why: `http_${answer.httpStatus}`, evidence };
  const decision = parseBody(decisionSchema, answer.body);
  // An answer about another contestation is not an answer about this one.
  if (decision === null || decision.id !== pspRef) return { kind: "unknown", why: "malformed_body", evidence };
  if (decision.status === "submitted") return { kind: "pending", evidence };
  return { kind: "decided", outcome: decision.status, evidence };
}
