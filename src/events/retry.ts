// When an event's next delivery attempt is due, or that it is parked: pure, the clock passed in.
// Backoff from EVENTS_RETRY_FIRST_MS doubling to an hour; after three days of failures the
// event is parked (shown to operators, alerted), and its transfer's later events wait behind it.

export const eventRetryDelayMsMax = 60 * 60 * 1000;
/** Receivers get at least this long to come back (CONTRACT §6: "for at least 3 days"). */
export const eventDeliveryWindowMs = 3 * 24 * 60 * 60 * 1000;

export type RetryDecision = { outcome: "retry"; nextAttemptAtMs: number } | { outcome: "parked" };

/** After a failed attempt: `attemptsMade` counts it. */
export function afterFailedAttempt(attemptsMade: number, retryFirstMs: number, occurredAtMs: number, nowMs: number): RetryDecision {
  if (nowMs - occurredAtMs >= eventDeliveryWindowMs) return { outcome: "parked" };
  // 2^exponent overflows to Infinity long after the cap is reached; min() keeps it finite.
  const delayMs = Math.min(retryFirstMs * 2 ** Math.max(0, attemptsMade - 1), eventRetryDelayMsMax);
  return { outcome: "retry", nextAttemptAtMs: nowMs + delayMs };
}
