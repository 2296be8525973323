// The pure core on a scheduled transfer, with a fixed clock: nothing before its slot, the run at
// its slot with one evening retry for too little available, and nothing else reaching it.
import { describe, expect, it } from "vitest";
import type { SagaTimings } from "../../src/saga/timings.ts";
import { type SagaEvent, type SagaView, transition } from "../../src/saga/transition.ts";
import { sendOutcome, statusOutcome } from "./fixtures.ts";

const timings: SagaTimings = { firstCheckDelayMs: 1_000, checkDelayMsMax: 8_000, deadlineMs: 90_000, notFoundGraceMs: 5_000 };
const runAtMs = 1_000_000;
const eveningRunAtMs = 1_060_000;
const scheduled: SagaView = {
  state: "scheduled",
  deadlineAtMs: 90_000,
  checksMade: 0,
  lastSentAtMs: null,
  schedule: { runAtMs, shortRuns: 0, eveningRunAtMs, recurring: false },
  pinnedBrCode: false,
};
const due: SagaEvent = { type: "due" };

describe("a scheduled transfer in the pure core", () => {
  it("does nothing before its slot, even when poked (a webhook or the sweeper force a step)", () => {
    expect(transition(scheduled, due, runAtMs - 1, timings)).toEqual({ state: "scheduled", commands: [] });
  });

  it("runs at its slot, with a retry at the evening slot if too little is available", () => {
    expect(transition(scheduled, due, runAtMs, timings)).toEqual({
      state: "scheduled",
      commands: [{ type: "run_scheduled", retryAtMs: eveningRunAtMs }],
    });
  });

  it("makes the evening run its last: too little available then ends it", () => {
    const retried: SagaView = { ...scheduled, schedule: { runAtMs: eveningRunAtMs, shortRuns: 1, eveningRunAtMs, recurring: false } };
    expect(transition(retried, due, eveningRunAtMs - 1, timings)).toEqual({ state: "scheduled", commands: [] });
    expect(transition(retried, due, eveningRunAtMs, timings)).toEqual({
      state: "scheduled",
      commands: [{ type: "run_scheduled", retryAtMs: null }],
    });
  });

  it("gives a recurring occurrence no retry under its own id: its recurrence opens a retry transfer instead", () => {
    const occurrence: SagaView = { ...scheduled, schedule: { runAtMs, shortRuns: 0, eveningRunAtMs, recurring: true } };
    expect(transition(occurrence, due, runAtMs, timings)).toEqual({
      state: "scheduled",
      commands: [{ type: "run_scheduled", retryAtMs: null }],
    });
  });

  it("gives a first run that comes after the evening slot (late, after an outage) no retry", () => {
    expect(transition(scheduled, due, eveningRunAtMs, timings)).toEqual({
      state: "scheduled",
      commands: [{ type: "run_scheduled", retryAtMs: null }],
    });
  });

  it("ignores provider answers and operators: nothing was sent, nothing is in review", () => {
    const events: SagaEvent[] = [
      { type: "send_answered", outcome: sendOutcome.accepted("confirmed", "E2E") },
      { type: "status_answered", outcome: statusOutcome.confirmed("E2E") },
      { type: "resend_answered", outcome: sendOutcome.rejected("AM04") },
      { type: "operator_resolved", outcome: "sent", note: "n" },
      { type: "operator_resolved", outcome: "approve", note: "n" },
    ];
    for (const event of events) expect(transition(scheduled, event, runAtMs, timings)).toEqual({ state: "scheduled", commands: [] });
  });

  it("treats a scheduled view without its schedule as a bug", () => {
    expect(() => transition({ ...scheduled, schedule: null }, due, runAtMs, timings)).toThrow("saga invariant violated");
  });

  it("does nothing at all once canceled", () => {
    const canceled: SagaView = { ...scheduled, state: "canceled", schedule: null };
    expect(transition(canceled, due, runAtMs, timings)).toEqual({ state: "canceled", commands: [] });
  });
});
