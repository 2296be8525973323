// Transfer states and the only transitions allowed between them: the one statement of the state
// machine. Nothing leaves a terminal state, and `compensated` can never reach `completed`: money
// released is never settled. The database enforces the same table on every write:
// `npm run db:functions` generates drizzle/functions/transfer_transition_allowed.sql from
// `allowedTransitions`, and transfer_history's CHECK calls it; src/transfers/schema.ts builds
// its state CHECK and the `transfers_due` index from `transferStates` and `inFlightStates`.

export const transferStates = [
  "scheduled",
  "started",
  "funds_reserved",
  "submitted",
  "completed",
  "compensating",
  "compensated",
  "needs_review",
  "canceled",
] as const;
export type TransferState = (typeof transferStates)[number];

export const failureReasons = ["insufficient_funds", "limit_exceeded", "provider_rejected", "not_sent"] as const;
export type FailureReason = (typeof failureReasons)[number];

export const allowedTransitions: Readonly<Record<TransferState, readonly TransferState[]>> = {
  // Scheduled for a later São Paulo day, nothing held: on that day it starts (rules and hold
  // then); until then its owner may cancel it.
  scheduled: ["started", "canceled"],
  // The hold either succeeds or the transfer ends before anything reaches the provider.
  started: ["funds_reserved", "compensated"],
  // Sent: accepted or unknown both mean submitted; only a definitive rejection compensates.
  // An anti-fraud rule may hold it for a person before anything is sent.
  funds_reserved: ["submitted", "compensating", "needs_review"],
  submitted: ["completed", "compensating", "needs_review"],
  compensating: ["compensated"],
  // Only an operator leaves needs_review; a transfer held before sending is approved back to
  // funds_reserved (and then sent), never marked completed without a payment.
  needs_review: ["completed", "compensated", "funds_reserved"],
  completed: [],
  compensated: [],
  canceled: [],
};

export function canTransition(from: TransferState, to: TransferState): boolean {
  return allowedTransitions[from].includes(to);
}

/** An impossible transition is a bug, never a business outcome: fail loudly. */
export function assertTransition(from: TransferState, to: TransferState): void {
  if (!canTransition(from, to)) throw new Error(`saga invariant violated: ${from} -> ${to} is not a transition`);
}

/** A path of states walked in one step, each hop allowed (e.g. compensating then compensated). */
export function assertPath(from: TransferState, path: readonly TransferState[]): void {
  let current = from;
  for (const next of path) {
    assertTransition(current, next);
    current = next;
  }
}

export function isTerminal(state: TransferState): boolean {
  return allowedTransitions[state].length === 0;
}

/**
 * States the saga advances by itself (needs_review waits for a person). A scheduled transfer's
 * next check is its run on the day, so the due index, the sweeper and a re-armed alarm find it.
 */
export const inFlightStates = [
  "scheduled",
  "started",
  "funds_reserved",
  "submitted",
  "compensating",
] as const satisfies readonly TransferState[];

export function isInFlight(state: TransferState): boolean {
  return (inFlightStates as readonly TransferState[]).includes(state);
}
