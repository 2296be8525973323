// What an operator may decide about a transfer in needs_review, and when a decision does not
// apply: pure, beside the transition table that acts on it.
import type { TransferState } from "./states.ts";

/**
 * An operator's decision on a transfer in needs_review (CONTRACT §5). After a send: `sent`
 * (settle) or `not_sent` (release). Held before anything was sent (anti-fraud): `approve` (send
 * it now) or `not_sent`; there is no Pix to settle, so `sent` does not apply.
 */
export type OperatorOutcome = "sent" | "not_sent" | "approve";
export type ResolveRefusal = "not_in_review" | "no_pix_to_settle" | "nothing_to_approve";

/** Why `outcome` does not apply to this saga, or null when it does. */
export function resolveRefusal(
  saga: { state: TransferState; lastSentAtMs: number | null },
  outcome: OperatorOutcome,
): ResolveRefusal | null {
  if (saga.state !== "needs_review") return "not_in_review";
  const heldBeforeSending = saga.lastSentAtMs === null;
  if (outcome === "sent" && heldBeforeSending) return "no_pix_to_settle";
  if (outcome === "approve" && !heldBeforeSending) return "nothing_to_approve";
  return null;
}
