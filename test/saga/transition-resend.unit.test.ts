// The not-found settled by sending again (CONTRACT §4b, Efí): after the grace window the saga
// records the check and sends the same id again; only a definitive refusal of that send
// releases the hold. Time is only ever the nowMs argument.
import { describe, expect, it } from "vitest";
import type { SagaTimings } from "../../src/saga/timings.ts";
import { type SagaEvent, type SagaView, transition } from "../../src/saga/transition.ts";
import { persistedChange, sendOutcome, statusOutcome } from "./fixtures.ts";

const timings: SagaTimings = { firstCheckDelayMs: 1_000, checkDelayMsMax: 8_000, deadlineMs: 90_000, notFoundGraceMs: 5_000 };
const deadlineAtMs = 100_000;
const sentAtMs = 10_000;
const submitted: SagaView = {
  state: "submitted",
  deadlineAtMs,
  checksMade: 2,
  lastSentAtMs: sentAtMs,
  schedule: null,
  pinnedBrCode: false,
};

function resendAnswered(outcome: ReturnType<(typeof sendOutcome)[keyof typeof sendOutcome]>, nowMs = 20_000) {
  const event: SagaEvent = { type: "resend_answered", outcome };
  return transition(submitted, event, nowMs, timings);
}

describe("a not-found the adapter settles by sending again", () => {
  it("within the grace window it is still only a check later", () => {
    const result = transition(submitted, { type: "status_answered", outcome: statusOutcome.notFound("resend") }, 12_000, timings);
    expect(result.state).toBe("submitted");
    expect(result.commands.map((c) => c.type)).toEqual(["persist"]);
  });

  it("after the grace window records the check, then sends again; nothing is released", () => {
    const result = transition(submitted, { type: "status_answered", outcome: statusOutcome.notFound("resend") }, 20_000, timings);
    expect(result.state).toBe("submitted");
    expect(result.commands.map((c) => c.type)).toEqual(["persist", "resend_to_provider"]);
    expect(persistedChange(result)).toMatchObject({ path: [], ledger: null, failureReason: null, nextCheckAtMs: 21_000, checksMade: 2 });
    expect(persistedChange(result)?.reason).toContain("sending again");
  });

  it("past the deadline sends nothing new: the transfer goes to a person, hold kept", () => {
    const result = transition(submitted, { type: "status_answered", outcome: statusOutcome.notFound("resend") }, 150_000, timings);
    expect(result.state).toBe("needs_review");
    expect(result.commands.map((c) => c.type)).toEqual(["persist"]);
    expect(persistedChange(result)).toMatchObject({ path: ["needs_review"], ledger: null });
  });

  it("the generic API's not-found after the grace window still compensates not_sent (CONTRACT §4)", () => {
    const result = transition(submitted, { type: "status_answered", outcome: statusOutcome.notFound("release") }, 20_000, timings);
    expect(result.state).toBe("compensated");
    expect(persistedChange(result)).toMatchObject({ ledger: "release", failureReason: "not_sent" });
  });
});

// biome-ignore format: a table reads best as a grid
const resendRows = [
  // name                                          outcome                                          to             path                              ledger     failureReason failureCode          lastSentAtMs nextCheckAtMs
  ["accepted processing: made now, check again",   sendOutcome.accepted("processing", "E2E-2"),     "submitted",   [],                               null,      null,         null,                20_000,      21_000],
  ["accepted confirmed: settle",                   sendOutcome.accepted("confirmed", "E2E-2"),      "completed",   ["completed"],                    "settle",  null,         null,                20_000,      null],
  ["409 (it exists): check again",                 sendOutcome.unknown("already_exists"),           "submitted",   [],                               null,      null,         null,                20_000,      21_000],
  ["timeout: check again, grace restarts",         sendOutcome.unknown("timeout"),                  "submitted",   [],                               null,      null,         null,                20_000,      21_000],
  ["refused: recorded, nothing released yet",      sendOutcome.rejected("pagamento_negado"),        "submitted",   [],                               null,      null,         null,                20_000,      21_000],
] as const;

/** Submitted after the refused resend was recorded at 20 s: the view the refusal's status read answers. */
const refusedAt: SagaView = { ...submitted, checksMade: 0, lastSentAtMs: 20_000 };

function refusalChecked(outcome: ReturnType<(typeof statusOutcome)[keyof typeof statusOutcome]>, nowMs = 20_100) {
  return transition(refusedAt, { type: "refusal_checked", code: "pagamento_negado", outcome }, nowMs, timings);
}

// biome-ignore format: a table reads best as a grid
const refusalRows = [
  // name                                                     outcome                                  to             path                              ledger     failureReason        failureCode
  ["still not found: release, not_sent with the refusal",     statusOutcome.notFound("resend"),        "compensated", ["compensating", "compensated"],  "release", "not_sent",          "pagamento_negado"],
  ["confirmed after all (the read lagged): settle",           statusOutcome.confirmed("E2E-1"),        "completed",   ["completed"],                    "settle",  null,                null],
  ["rejected: release as the provider's rejection",           statusOutcome.rejected("AC03"),          "compensated", ["compensating", "compensated"],  "release", "provider_rejected", "AC03"],
  ["processing: the payment exists, check again, hold kept",  statusOutcome.processing(),              "submitted",   [],                               null,      null,                null],
  ["unknown: check again, hold kept",                         statusOutcome.unknown("http_503"),       "submitted",   [],                               null,      null,                null],
] as const;

describe("the resend's answer", () => {
  it.each(resendRows)("%s", (_name, outcome, to, path, ledger, failureReason, failureCode, lastSentAtMs, nextCheckAtMs) => {
    const result = resendAnswered(outcome);
    expect(result.state).toBe(to);
    expect(persistedChange(result)).toMatchObject({ path, ledger, failureReason, failureCode, lastSentAtMs, nextCheckAtMs });
  });

  it("a refusal releases nothing before the status is read once more", () => {
    const result = resendAnswered(sendOutcome.rejected("pagamento_negado"));
    expect(result.commands).toEqual([
      expect.objectContaining({ type: "persist" }),
      { type: "check_after_refusal", code: "pagamento_negado" },
    ]);
    expect(persistedChange(result)?.reason).toContain("asking its status once more");
  });

  it("an unknown resend past the deadline goes to needs_review, hold kept", () => {
    const result = resendAnswered(sendOutcome.unknown("already_exists"), 150_000);
    expect(result.state).toBe("needs_review");
    expect(persistedChange(result)).toMatchObject({ path: ["needs_review"], ledger: null });
  });

  it("is ignored outside submitted", () => {
    for (const state of ["funds_reserved", "completed", "compensated", "needs_review"] as const) {
      const view: SagaView = { ...submitted, state };
      expect(transition(view, { type: "resend_answered", outcome: sendOutcome.rejected("x") }, 20_000, timings)).toEqual({
        state,
        commands: [],
      });
    }
  });
});

describe("the status read once more after a refused resend", () => {
  it.each(refusalRows)("%s", (_name, outcome, to, path, ledger, failureReason, failureCode) => {
    const result = refusalChecked(outcome);
    expect(result.state).toBe(to);
    expect(persistedChange(result)).toMatchObject({ path, ledger, failureReason, failureCode });
  });

  it("an inconclusive read past the deadline goes to needs_review, hold kept", () => {
    const result = refusalChecked(statusOutcome.processing(), 150_000);
    expect(result.state).toBe("needs_review");
    expect(persistedChange(result)).toMatchObject({ path: ["needs_review"], ledger: null });
  });

  it("is ignored outside submitted", () => {
    for (const state of ["funds_reserved", "completed", "compensated", "needs_review"] as const) {
      const event: SagaEvent = { type: "refusal_checked", code: "x", outcome: statusOutcome.notFound("resend") };
      expect(transition({ ...refusedAt, state }, event, 20_100, timings)).toEqual({ state, commands: [] });
    }
  });
});
