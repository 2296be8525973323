// Contestations (MED 2.0, "Contestar este Pix") in the core's words: their states, and what the
// transfer's object does next for one. Pure, like transition(): the runtime
// (src/saga-runtime/contestations.ts) asks the provider and records the answers. A contestation
// never moves money: an accepted one makes the saga read the transfer's returns, and the
// provider's `fraud` return is credited by the returns path, once.
import { checkDelayMs, type SagaTimings } from "./timings.ts";

export const contestationStates = ["open", "submitted", "accepted", "partially_accepted", "rejected", "canceled"] as const;
export type ContestationState = (typeof contestationStates)[number];

/** Not final: the one a transfer may have at a time, and what the owner may still cancel. */
export const activeContestationStates = ["open", "submitted"] as const satisfies readonly ContestationState[];

export const contestationReasons = ["fraud", "scam", "coercion"] as const;
export type ContestationReason = (typeof contestationReasons)[number];

export const contestationOutcomes = ["accepted", "partially_accepted", "rejected"] as const;
export type ContestationOutcome = (typeof contestationOutcomes)[number];

/** Decisions that send money back: the saga reads the transfer's returns until one comes. */
export const refundingOutcomes = ["accepted", "partially_accepted"] as const satisfies readonly ContestationOutcome[];

const dayMs = 24 * 60 * 60 * 1000;
/** A completed Pix may be contested this long after it completed (business time). */
export const contestationWindowMs = 80 * dayMs;
/** MED 2.0: the refund is due within 11 days; past it an operator is alerted (business time). */
export const contestationDeadlineMs = 11 * dayMs;
/** After a refunding decision, the transfer's returns are read this long for the money (wall clock). */
export const refundWatchMs = 7 * dayMs;
export const detailsLengthMax = 2000;

export function isActive(state: ContestationState): boolean {
  return (activeContestationStates as readonly string[]).includes(state);
}

export function isRefunding(state: ContestationState): boolean {
  return (refundingOutcomes as readonly string[]).includes(state);
}

export interface ContestationView {
  state: ContestationState;
  pspRef: string | null;
  /** Provider calls made for it (forwards and asks): the backoff's exponent. */
  checksMade: number;
  /** Cents of `fraud` returns since it was made (derived from the transfer's returns). */
  returnedCents: number;
  /** Until when a refunding decision's money is waited for (wall clock); null otherwise. */
  refundWatchUntilMs: number | null;
}

export type ContestationCommand =
  /** Hand it to the provider (its contestation API); the answer is `submitted` with its reference, or unknown. */
  | { type: "forward" }
  /** Ask the provider for its decision. */
  | { type: "ask_decision"; pspRef: string }
  /** A refunding decision whose money has not come yet: read the transfer's returns. */
  | { type: "check_refund" }
  | { type: "none" };

/**
 * What to do for a contestation now. `takesContestations`: the provider has a contestation
 * API; without one (Efí) an open contestation waits for an operator (/ops/contestations).
 */
export function nextContestationStep(view: ContestationView, takesContestations: boolean, nowMs: number): ContestationCommand {
  if (view.state === "open") return takesContestations ? { type: "forward" } : { type: "none" };
  if (view.state === "submitted")
    return takesContestations && view.pspRef !== null ? { type: "ask_decision", pspRef: view.pspRef } : { type: "none" };
  if (isRefunding(view.state) && view.returnedCents === 0 && view.refundWatchUntilMs !== null && nowMs < view.refundWatchUntilMs) {
    return { type: "check_refund" };
  }
  return { type: "none" };
}

/** When to try again after a call that settled nothing: the saga's own backoff, never past its cap. */
export function contestationRetryAtMs(checksMade: number, nowMs: number, timings: SagaTimings): number {
  return nowMs + checkDelayMs(checksMade, timings);
}
