// What the sandbox answers, computed from a stored payment, its behaviour and the time: pure, so
// a payment's status is derived lazily ("confirmed once final_at_ms has passed") and never stored.
import { type Behaviour, behaviourFor, isKnownToProvider, makesPix } from "./behaviours.ts";
import { returnsBy, type ScriptedReturn } from "./returns.ts";
import type { PaymentRow } from "./store.ts";

export interface SandboxAnswer {
  httpStatus: number;
  body: Record<string, unknown>;
  /** How long the HTTP layer waits before answering (the slow behaviours). */
  answerDelayMs: number;
}

export type PaymentStatus = "processing" | "confirmed" | "rejected";

/** CONTRACT §4's view of a payment for /sandbox/provider/payments. */
export interface PaymentView {
  idempotency_key: string;
  send_calls: number;
  status_calls: number;
  made: boolean;
  status: PaymentStatus | "not_found";
  end_to_end_id: string | null;
}

/** How long past the grace window a late-confirm payment nobody gave up on stays hidden. */
export const lateConfirmUnclaimedMs = 10_000;

/** Slow sends answer this long after the caller's timeout, so the caller has surely given up. */
export const slowAnswerMarginMs = 500;

export function sendAnswer(row: PaymentRow, firstCall: boolean, providerTimeoutMs: number): SandboxAnswer {
  const behaviour = behaviourFor(row.pix_key);
  const slowDelayMs = providerTimeoutMs + slowAnswerMarginMs;
  switch (behaviour.send) {
    case "reject":
      return { httpStatus: 422, body: { code: behaviour.rejectCode ?? "rejected" }, answerDelayMs: 0 };
    case "slow_lost":
      return { httpStatus: 504, body: { code: "gateway_timeout" }, answerDelayMs: slowDelayMs };
    case "error_made":
      return { httpStatus: 500, body: { code: "internal_error" }, answerDelayMs: 0 };
    case "slow_made":
      return { ...acceptedAnswer(row, firstCall), answerDelayMs: slowDelayMs };
    case "accept":
      return { ...acceptedAnswer(row, firstCall), answerDelayMs: 0 };
  }
}

/** 201 the first time, 200 on a repeat, same body: what an idempotent PUT promises. */
function acceptedAnswer(row: PaymentRow, firstCall: boolean): Omit<SandboxAnswer, "answerDelayMs"> {
  return {
    httpStatus: firstCall ? 201 : 200,
    body: { idempotency_key: row.idempotency_key, amount_cents: row.amount_cents, status: "processing", end_to_end_id: row.end_to_end_id },
  };
}

export const idempotencyConflictAnswer: SandboxAnswer = { httpStatus: 409, body: { code: "idempotency_conflict" }, answerDelayMs: 0 };
export const notFoundAnswer: SandboxAnswer = { httpStatus: 404, body: { code: "not_found" }, answerDelayMs: 0 };

/** `statusCallNumber` counts this call, from 1; `refunds`: a contestation's, once decided (contestations.ts). */
export function statusAnswer(
  row: PaymentRow,
  statusCallNumber: number,
  nowMs: number,
  refunds: readonly ScriptedReturn[] = [],
): SandboxAnswer {
  const behaviour = behaviourFor(row.pix_key);
  if (!isKnownToProvider(behaviour) || isHidden(behaviour, row, nowMs)) return notFoundAnswer;
  if (statusCallNumber <= behaviour.unavailableStatusCalls) return { httpStatus: 503, body: { code: "unavailable" }, answerDelayMs: 0 };
  const status = currentStatus(behaviour, row, nowMs);
  return {
    httpStatus: 200,
    body: {
      idempotency_key: row.idempotency_key,
      amount_cents: row.amount_cents,
      status,
      end_to_end_id: row.end_to_end_id,
      code: status === "rejected" ? behaviour.rejectCode : null,
      ...(status === "confirmed"
        ? {
            returns: [...returnsBy(row, nowMs), ...refunds].map((r) => ({
              id: r.id,
              amount_cents: r.amountCents,
              reason: r.reason,
              at: new Date(r.atMs).toISOString(),
            })),
          }
        : {}),
    },
    answerDelayMs: 0,
  };
}

/** A late-confirm payment answers not found until it leaves (final_at_ms: once its caller gave up). */
function isHidden(behaviour: Behaviour, row: PaymentRow, nowMs: number): boolean {
  return behaviour.hiddenPastGrace && nowMs < row.final_at_ms;
}

export function paymentView(row: PaymentRow, nowMs: number): PaymentView {
  const behaviour = behaviourFor(row.pix_key);
  return {
    idempotency_key: row.idempotency_key,
    send_calls: row.send_calls,
    status_calls: row.status_calls,
    made: makesPix(behaviour),
    status: isKnownToProvider(behaviour) && !isHidden(behaviour, row, nowMs) ? currentStatus(behaviour, row, nowMs) : "not_found",
    end_to_end_id: row.end_to_end_id,
  };
}

function currentStatus(behaviour: Behaviour, row: PaymentRow, nowMs: number): PaymentStatus {
  if (behaviour.send === "reject") return "rejected";
  if (behaviour.finalStatus === "processing" || nowMs < row.final_at_ms) return "processing";
  return behaviour.finalStatus;
}

/** Payments the sandbox refuses or loses never get an end-to-end id. */
export function needsEndToEndId(pixKey: string): boolean {
  const behaviour = behaviourFor(pixKey);
  return behaviour.send !== "reject" && isKnownToProvider(behaviour);
}
