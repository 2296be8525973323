// The retry schedule of an event delivery: from EVENTS_RETRY_FIRST_MS doubling to an hour, for
// at least three days, then parked.
import { describe, expect, it } from "vitest";
import { afterFailedAttempt, eventDeliveryWindowMs, eventRetryDelayMsMax } from "../../src/events/retry.ts";

const occurredAtMs = 1_800_000_000_000;

describe("an event's retry schedule", () => {
  it("waits the first delay, then doubles it, capped at one hour", () => {
    const delaysMs = [1, 2, 3, 4, 10, 20, 60].map((attempts) => {
      const decision = afterFailedAttempt(attempts, 10_000, occurredAtMs, occurredAtMs);
      return decision.outcome === "retry" ? decision.nextAttemptAtMs - occurredAtMs : null;
    });
    expect(delaysMs).toEqual([10_000, 20_000, 40_000, 80_000, eventRetryDelayMsMax, eventRetryDelayMsMax, eventRetryDelayMsMax]);
  });

  it("keeps retrying until three days after the event, then parks it", () => {
    const justBeforeMs = occurredAtMs + eventDeliveryWindowMs - 1;
    expect(afterFailedAttempt(80, 10_000, occurredAtMs, justBeforeMs).outcome).toBe("retry");
    expect(afterFailedAttempt(81, 10_000, occurredAtMs, occurredAtMs + eventDeliveryWindowMs)).toEqual({ outcome: "parked" });
    expect(eventDeliveryWindowMs).toBeGreaterThanOrEqual(3 * 24 * 60 * 60 * 1000);
  });
});
