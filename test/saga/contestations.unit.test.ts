// The contestation core's decisions, by table: what the object does next for each state, with and
// without a provider that takes contestations, and when it stops waiting for a refund.
import { describe, expect, it } from "vitest";
import { type ContestationView, contestationRetryAtMs, nextContestationStep } from "../../src/saga/contestations.ts";

const view = (over: Partial<ContestationView>): ContestationView => ({
  state: "open",
  pspRef: null,
  checksMade: 0,
  returnedCents: 0,
  refundWatchUntilMs: null,
  ...over,
});

describe("nextContestationStep", () => {
  it.each<[string, Partial<ContestationView>, boolean, string]>([
    ["open, provider takes them: forward", {}, true, "forward"],
    ["open, Efí: wait for an operator", {}, false, "none"],
    ["submitted with a reference: ask", { state: "submitted", pspRef: "c-1" }, true, "ask_decision"],
    ["submitted by an operator (Efí): nothing to ask", { state: "submitted", pspRef: "MED-1" }, false, "none"],
    ["accepted, no refund yet, watching: read returns", { state: "accepted", refundWatchUntilMs: 2_000 }, true, "check_refund"],
    ["partially accepted, Efí, watching: read returns", { state: "partially_accepted", refundWatchUntilMs: 2_000 }, false, "check_refund"],
    ["accepted, refund in: done", { state: "accepted", returnedCents: 10, refundWatchUntilMs: 2_000 }, true, "none"],
    ["accepted, watch over: done", { state: "accepted", refundWatchUntilMs: 500 }, true, "none"],
    ["rejected: done", { state: "rejected", pspRef: "c-1" }, true, "none"],
    ["canceled: done", { state: "canceled" }, true, "none"],
  ])("%s", (_, over, takes, expected) => {
    expect(nextContestationStep(view(over), takes, 1_000).type).toBe(expected);
  });
});

describe("contestationRetryAtMs", () => {
  it("backs off as the saga does, never past its cap", () => {
    const timings = { firstCheckDelayMs: 100, checkDelayMsMax: 1_000, deadlineMs: 0, notFoundGraceMs: 0 };
    expect([0, 1, 2, 3, 4, 60].map((n) => contestationRetryAtMs(n, 0, timings))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });
});
