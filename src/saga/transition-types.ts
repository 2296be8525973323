// The saga core's vocabulary: what it reads (SagaView), what happens to it (SagaEvent), and
// what it decides (Transition: the state and the commands, a persisted SagaChange among them).
// Types only; transition.ts holds the rules and re-exports these, so callers import one module.
import type { BrCodeCheck, SendAnswer, StatusAnswer } from "./answers.ts";
import type { OperatorOutcome } from "./operator-outcome.ts";
import type { FailureReason, TransferState } from "./states.ts";

export interface SagaView {
  state: TransferState;
  deadlineAtMs: number;
  /** Inconclusive status checks so far: drives the backoff. */
  checksMade: number;
  /** When the order was last sent; the not-found grace window runs from here. */
  lastSentAtMs: number | null;
  /** A scheduled transfer's runs; null for every other state. */
  schedule: ScheduleView | null;
  /**
   * The transfer pays a dynamic BR Code: the receiver can change its charge until the Pix
   * leaves, so every send and resend is preceded by resolving it again (`check_br_code`).
   */
  pinnedBrCode: boolean;
}

/** Which send a BR Code check comes before: the first (from funds_reserved) or a resend after a not-found. */
export type SendKind = "send" | "resend";

export interface ScheduleView {
  /** The recorded next run: the early slot of its day, or the evening retry after a short run. */
  runAtMs: number;
  /** Runs that found too little available so far. */
  shortRuns: number;
  /** The evening slot of its day (src/saga/schedule.ts). */
  eveningRunAtMs: number;
  /**
   * An occurrence of a recurring transfer (or its retry): never retried under its own id, since
   * its recurrence opens a retry transfer of its own for the evening (recurring_after_run).
   */
  recurring: boolean;
}

// The hold, the Pix rules and the anti-fraud review are decided where the transfer is opened
// (transfer_open, one transaction), or for a scheduled transfer where it runs on its day
// (transfer_run_scheduled), so the core's first event is the first `due`.
export type SagaEvent =
  | { type: "due" }
  | { type: "send_answered"; outcome: SendAnswer }
  | { type: "status_answered"; outcome: StatusAnswer }
  /** The answer to sending again with the same id after a not-found past the grace window. */
  | { type: "resend_answered"; outcome: SendAnswer }
  /** A dynamic BR Code resolved again before `before`, compared with what the transfer holds. */
  | { type: "br_code_checked"; before: SendKind; outcome: BrCodeCheck }
  /** The status read once more after that resend was refused (`code`): it decides the release. */
  | { type: "refusal_checked"; code: string; outcome: StatusAnswer }
  | { type: "operator_resolved"; outcome: OperatorOutcome; note: string };

export type Actor = "saga" | "provider" | "operator";

/** What to write, in one conditional statement guarded by the state it was decided from. */
export interface SagaChange {
  /** States walked, in order; empty when only a check is recorded. */
  path: TransferState[];
  ledger: "settle" | "release" | null;
  /** Null keeps what is stored (a retried compensation keeps its original reason). */
  failureReason: FailureReason | null;
  /** Null keeps what is stored. */
  failureCode: string | null;
  /** A provider end-to-end id learned now; null keeps what is stored. */
  endToEndId: string | null;
  checksMade: number;
  nextCheckAtMs: number | null;
  lastSentAtMs: number | null;
  reason: string;
  actor: Actor;
}

// The next check is part of the persisted change (`nextCheckAtMs`): the object arms its alarm
// from the record it persisted, so there is no separate scheduling command.
export type SagaCommand =
  /**
   * Start a scheduled transfer: the Pix rules and the hold (transfer_run_scheduled). With
   * `retryAtMs`, too little available keeps it scheduled until then; null: that ends it.
   */
  | { type: "run_scheduled"; retryAtMs: number | null }
  | { type: "send_to_provider" }
  | { type: "check_provider_status" }
  /** Send again with the same id: the provider said it has no such payment after the grace window. */
  | { type: "resend_to_provider" }
  /** Resolve the dynamic BR Code again; only a charge that still asks for what was held is then sent. */
  | { type: "check_br_code"; before: SendKind }
  /**
   * The resend was refused (`code`): ask the status once more before releasing, since a status
   * read that lags behind a payment, and a refusal that only says "not again", would release it.
   */
  | { type: "check_after_refusal"; code: string }
  | { type: "persist"; change: SagaChange };

export interface Transition {
  state: TransferState;
  commands: SagaCommand[];
}
