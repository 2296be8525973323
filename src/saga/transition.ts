// The saga's pure core: transition(saga, event, nowMs) -> { state, commands }. No I/O, no clock
// reads; the Durable Object loads, calls this, runs the commands and persists the change.
// The mission's rules live here: unknown is never failure; before the send, compensate; after
// it, check until sure; only a definitive provider answer (or not_found after the grace
// window, settled as the provider's adapter says: release, or send again and let only a
// definitive refusal of that send, confirmed by one more not-found, release) compensates; the
// deadline sends an inconclusive saga to needs_review, hold kept. A dynamic BR Code is resolved
// again before every send and resend: a charge that asks for anything else than what was held
// is not paid.
import type { BrCodeCheck, SendAnswer, StatusAnswer } from "./answers.ts";
import { resolveRefusal } from "./operator-outcome.ts";

export type { OperatorOutcome, ResolveRefusal } from "./operator-outcome.ts";
export { resolveRefusal } from "./operator-outcome.ts";

import { type FailureReason, isTerminal, type TransferState } from "./states.ts";
import { checkDelayMs, type SagaTimings } from "./timings.ts";
import type { Actor, SagaChange, SagaCommand, SagaEvent, SagaView, SendKind, Transition } from "./transition-types.ts";

export type { Actor, SagaChange, SagaCommand, SagaEvent, SagaView, ScheduleView, SendKind, Transition } from "./transition-types.ts";

const nothing = (saga: SagaView): Transition => ({ state: saga.state, commands: [] });

/** A change that moves nothing but `patch`: what a step does not name stays as it was or empty. */
export function change(
  saga: Pick<SagaView, "checksMade" | "lastSentAtMs">,
  patch: Partial<SagaChange> & Pick<SagaChange, "reason" | "actor">,
): SagaChange {
  return {
    path: [],
    ledger: null,
    failureReason: null,
    failureCode: null,
    endToEndId: null,
    checksMade: saga.checksMade,
    nextCheckAtMs: null,
    lastSentAtMs: saga.lastSentAtMs,
    ...patch,
  };
}

function persisted(saga: SagaView, c: SagaChange): Transition {
  return { state: c.path.at(-1) ?? saga.state, commands: [{ type: "persist", change: c }] };
}

function compensate(
  saga: SagaView,
  failureReason: FailureReason | null,
  failureCode: string | null,
  reason: string,
  actor: Actor,
): Transition {
  const path: TransferState[] = saga.state === "compensating" ? ["compensated"] : ["compensating", "compensated"];
  return persisted(saga, change(saga, { path, ledger: "release", failureReason, failureCode, reason, actor }));
}

/** Inconclusive answer: check again with backoff, or hand over to a person at the deadline. */
function checkLater(saga: SagaView, nowMs: number, timings: SagaTimings, why: string): Transition {
  if (nowMs >= saga.deadlineAtMs) {
    return persisted(saga, change(saga, { path: ["needs_review"], reason: `deadline passed while ${why}; hold kept`, actor: "saga" }));
  }
  // The first check came `first` after the send (n = 0); after n inconclusive checks the next
  // waits min(first * 2^n, max).
  const nextCheckAtMs = Math.min(nowMs + checkDelayMs(saga.checksMade + 1, timings), saga.deadlineAtMs);
  return persisted(saga, change(saga, { checksMade: saga.checksMade + 1, nextCheckAtMs, reason: why, actor: "saga" }));
}

/** The provider paid: the hold becomes the final debit. */
function confirmed(
  saga: SagaView,
  path: SagaChange["path"],
  endToEndId: string | null,
  reason: string,
  sent: Partial<SagaChange> = {},
): Transition {
  return persisted(saga, change(saga, { ...sent, path, ledger: "settle", endToEndId, reason, actor: "provider" }));
}

/** The failure code of a transfer whose dynamic BR Code no longer asks for what was held. */
export const brCodeChangedCode = "br_code_changed";

/**
 * The command that sends (or resends) now. A dynamic BR Code's charge can be raised, moved to
 * another key or removed by its receiver until the Pix leaves, and the provider pays it as it is
 * then: so the code is resolved again first, and only what was held is ever paid.
 */
function sendNow(saga: SagaView, before: SendKind): SagaCommand {
  if (saga.pinnedBrCode) return { type: "check_br_code", before };
  return before === "send" ? { type: "send_to_provider" } : { type: "resend_to_provider" };
}

/**
 * The code resolved again. Unchanged: send. Changed (amount, key, no longer payable): nothing is
 * sent and the hold is released; a resend comes only after the provider said it holds no
 * payment under this id, and the first send never leaves funds_reserved with a payment made
 * unless its answer was lost to a crash (docs/br-code.md). Unknown is not a change: nothing is
 * sent now, the code is asked again with the saga's backoff, and the deadline hands it to a
 * person with the hold kept.
 */
function onBrCodeChecked(saga: SagaView, before: SendKind, outcome: BrCodeCheck, nowMs: number, timings: SagaTimings): Transition {
  switch (outcome.kind) {
    case "unchanged":
      return { state: saga.state, commands: [before === "send" ? { type: "send_to_provider" } : { type: "resend_to_provider" }] };
    case "changed":
      return compensate(
        saga,
        "not_sent",
        brCodeChangedCode,
        `BR Code changed before the ${before} (${outcome.what}); nothing sent`,
        "saga",
      );
    case "unknown":
      return checkLater(saga, nowMs, timings, `BR Code not resolved before the ${before} (${outcome.why}); nothing sent`);
  }
}

function onSendAnswered(saga: SagaView, outcome: SendAnswer, nowMs: number, timings: SagaTimings): Transition {
  const firstCheckAtMs = Math.min(nowMs + timings.firstCheckDelayMs, saga.deadlineAtMs);
  const sent = { lastSentAtMs: nowMs, checksMade: 0 };
  switch (outcome.kind) {
    case "accepted":
      if (outcome.status === "confirmed") {
        return confirmed(saga, ["submitted", "completed"], outcome.endToEndId, "provider confirmed on send", sent);
      }
      return persisted(
        saga,
        change(saga, {
          ...sent,
          path: ["submitted"],
          endToEndId: outcome.endToEndId,
          nextCheckAtMs: firstCheckAtMs,
          reason: "provider accepted the order",
          actor: "provider",
        }),
      );
    case "rejected":
      return compensate(saga, "provider_rejected", outcome.code, `provider rejected the order: ${outcome.code}`, "provider");
    case "unknown":
      // A timeout, reset or 5xx may have paid: never a failure, ask the provider later.
      return persisted(
        saga,
        change(saga, {
          ...sent,
          path: ["submitted"],
          nextCheckAtMs: firstCheckAtMs,
          reason: `send outcome unknown (${outcome.why}); will check`,
          actor: "saga",
        }),
      );
  }
}

function onStatusAnswered(saga: SagaView, outcome: StatusAnswer, nowMs: number, timings: SagaTimings): Transition {
  switch (outcome.kind) {
    case "confirmed":
      return confirmed(saga, ["completed"], outcome.endToEndId, "provider confirmed");
    case "rejected":
      return compensate(saga, "provider_rejected", outcome.code, `provider rejected the payment: ${outcome.code}`, "provider");
    case "not_found": {
      const graceEndsAtMs = (saga.lastSentAtMs ?? 0) + timings.notFoundGraceMs;
      if (saga.lastSentAtMs !== null && nowMs >= graceEndsAtMs) {
        if (outcome.afterGrace === "release") {
          return compensate(saga, "not_sent", null, "provider has no such payment after the grace window", "provider");
        }
        return resendAfterGrace(saga, nowMs, timings);
      }
      return checkLater(saga, nowMs, timings, "provider does not know the payment yet (within the grace window)");
    }
    case "processing":
      return checkLater(saga, nowMs, timings, "provider still processing");
    case "unknown":
      return checkLater(saga, nowMs, timings, `status unknown (${outcome.why})`);
  }
}

/**
 * Not found after the grace window, at a provider whose sends are idempotent by our id: sending
 * again settles it (made now, already there, or refused for good). The check is recorded first,
 * so a crash before the resend only repeats the check. Past the deadline nothing new is sent: a
 * payment leaving hours late would surprise its owner more than a person's review.
 */
function resendAfterGrace(saga: SagaView, nowMs: number, timings: SagaTimings): Transition {
  if (nowMs >= saga.deadlineAtMs) return checkLater(saga, nowMs, timings, "provider has no such payment; too late to send again");
  const nextCheckAtMs = Math.min(nowMs + timings.firstCheckDelayMs, saga.deadlineAtMs);
  const record = change(saga, {
    nextCheckAtMs,
    reason: "provider has no such payment after the grace window; sending again",
    actor: "saga",
  });
  return { state: saga.state, commands: [{ type: "persist", change: record }, sendNow(saga, "resend")] };
}

function onResendAnswered(saga: SagaView, outcome: SendAnswer, nowMs: number, timings: SagaTimings): Transition {
  const resent = { lastSentAtMs: nowMs, checksMade: 0 };
  switch (outcome.kind) {
    case "accepted":
      if (outcome.status === "confirmed") {
        return confirmed(saga, ["completed"], outcome.endToEndId, "provider confirmed the resend", resent);
      }
      return persisted(
        saga,
        change(saga, {
          ...resent,
          endToEndId: outcome.endToEndId,
          nextCheckAtMs: Math.min(nowMs + timings.firstCheckDelayMs, saga.deadlineAtMs),
          reason: "provider accepted the resend: the payment was never made, and now is",
          actor: "provider",
        }),
      );
    case "rejected": {
      // A refusal of the same id may be about the order of events (a payment under it that the
      // last status read did not show yet): recorded, then the status is read once more, and
      // only that read's not-found releases. A crash in between repeats the check from scratch.
      const record = change(saga, {
        ...resent,
        nextCheckAtMs: Math.min(nowMs + timings.firstCheckDelayMs, saga.deadlineAtMs),
        reason: `provider refused the resend (${outcome.code}); asking its status once more before releasing`,
        actor: "provider",
      });
      return {
        state: saga.state,
        commands: [
          { type: "persist", change: record },
          { type: "check_after_refusal", code: outcome.code },
        ],
      };
    }
    case "unknown": {
      // 409 (it exists) or no answer: check again. The grace window restarts from this send,
      // which may have made the payment just now.
      if (nowMs >= saga.deadlineAtMs) {
        return persisted(
          saga,
          change(saga, { path: ["needs_review"], reason: `deadline passed; resend ${outcome.why}; hold kept`, actor: "saga" }),
        );
      }
      const nextCheckAtMs = Math.min(nowMs + timings.firstCheckDelayMs, saga.deadlineAtMs);
      return persisted(
        saga,
        change(saga, { ...resent, nextCheckAtMs, reason: `resend outcome: ${outcome.why}; will check`, actor: "saga" }),
      );
    }
  }
}

/** The status read after a refused resend: only "still no such payment" releases the hold. */
function onRefusalChecked(saga: SagaView, code: string, outcome: StatusAnswer, nowMs: number, timings: SagaTimings): Transition {
  switch (outcome.kind) {
    case "confirmed":
      return confirmed(saga, ["completed"], outcome.endToEndId, `provider confirmed the payment after refusing its resend (${code})`);
    case "rejected":
      return compensate(saga, "provider_rejected", outcome.code, `provider rejected the payment: ${outcome.code}`, "provider");
    case "not_found":
      // The same id refused for good and still unknown to the provider: no payment exists under it.
      return compensate(saga, "not_sent", code, `provider refused the resend (${code}) and still has no such payment`, "provider");
    case "processing":
      return checkLater(saga, nowMs, timings, `provider refused the resend (${code}) but shows the payment processing`);
    case "unknown":
      return checkLater(saga, nowMs, timings, `provider refused the resend (${code}); status unknown (${outcome.why})`);
  }
}

/**
 * A scheduled transfer runs once its slot has come (a poke before it, a webhook or the sweeper,
 * changes nothing). Its first run that finds too little available is retried in the evening
 * slot of the same day, unless that slot has passed too (a run late after an outage); the
 * retry is the last run. A recurring occurrence's first run is its last: too little available
 * ends it, and its recurrence opens the evening retry as a transfer of its own.
 */
function runScheduled(saga: SagaView, nowMs: number): Transition {
  const schedule = saga.schedule;
  if (schedule === null) throw new Error("saga invariant violated: a scheduled transfer without its schedule");
  if (nowMs < schedule.runAtMs) return nothing(saga);
  const retryAtMs = !schedule.recurring && schedule.shortRuns === 0 && nowMs < schedule.eveningRunAtMs ? schedule.eveningRunAtMs : null;
  return { state: saga.state, commands: [{ type: "run_scheduled", retryAtMs }] };
}

export function transition(saga: SagaView, event: SagaEvent, nowMs: number, timings: SagaTimings): Transition {
  if (isTerminal(saga.state)) return nothing(saga);
  switch (event.type) {
    case "due":
      if (saga.state === "scheduled") return runScheduled(saga, nowMs);
      if (saga.state === "funds_reserved") return { state: saga.state, commands: [sendNow(saga, "send")] };
      if (saga.state === "submitted") return { state: saga.state, commands: [{ type: "check_provider_status" }] };
      // A compensation that did not finish is retried until it does: it is local and idempotent.
      // The failure reason recorded when compensation began is kept (null keeps it).
      if (saga.state === "compensating") return compensate(saga, null, null, "retrying compensation", "saga");
      return nothing(saga);
    case "send_answered":
      // Only the send from funds_reserved counts; a late duplicate answer changes nothing.
      return saga.state === "funds_reserved" ? onSendAnswered(saga, event.outcome, nowMs, timings) : nothing(saga);
    case "status_answered":
      return saga.state === "submitted" ? onStatusAnswered(saga, event.outcome, nowMs, timings) : nothing(saga);
    case "resend_answered":
      return saga.state === "submitted" ? onResendAnswered(saga, event.outcome, nowMs, timings) : nothing(saga);
    case "br_code_checked": {
      // A check counts only in the state its send starts from; a late one changes nothing.
      const from = event.before === "send" ? "funds_reserved" : "submitted";
      return saga.state === from && saga.pinnedBrCode ? onBrCodeChecked(saga, event.before, event.outcome, nowMs, timings) : nothing(saga);
    }
    case "refusal_checked":
      return saga.state === "submitted" ? onRefusalChecked(saga, event.code, event.outcome, nowMs, timings) : nothing(saga);
    case "operator_resolved":
      if (resolveRefusal(saga, event.outcome) !== null) return nothing(saga);
      // Held before sending (anti-fraud): approval means "send it now".
      if (event.outcome === "approve") {
        return persisted(
          saga,
          change(saga, { path: ["funds_reserved"], nextCheckAtMs: nowMs, reason: `operator approved: ${event.note}`, actor: "operator" }),
        );
      }
      if (event.outcome === "sent") {
        return persisted(
          saga,
          change(saga, { path: ["completed"], ledger: "settle", reason: `operator: ${event.note}`, actor: "operator" }),
        );
      }
      return persisted(
        saga,
        change(saga, {
          path: ["compensated"],
          ledger: "release",
          failureReason: "not_sent",
          reason: `operator: ${event.note}`,
          actor: "operator",
        }),
      );
  }
}
