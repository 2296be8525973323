import { describe, expect, it } from "vitest";
import { afterCompletion, type CompletedView, isWatchingReturns } from "../../src/saga/after-completion.ts";
import { type ProviderReturn, returnsWatchMs } from "../../src/saga/returns.ts";
import { transferStates } from "../../src/saga/states.ts";
import { statusOutcome } from "./fixtures.ts";

const completedAtMs = 1_800_000_000_000;
const completed: CompletedView = { state: "completed", completedAtMs, returnIds: [] };
const half: ProviderReturn = { id: "D1", amountCents: 500, reason: "fraud", atMs: completedAtMs + 1_000 };
const rest: ProviderReturn = { id: "D2", amountCents: 501, reason: "fraud", atMs: completedAtMs + 2_000 };

describe("after completion: returns", () => {
  it("asks the provider when a completed transfer is poked within the watch", () => {
    expect(afterCompletion(completed, { type: "poked" }, completedAtMs)).toEqual([{ type: "check_returns" }]);
    expect(afterCompletion(completed, { type: "poked" }, completedAtMs + returnsWatchMs - 1)).toEqual([{ type: "check_returns" }]);
  });

  it("does nothing once the watch has passed", () => {
    const late = completedAtMs + returnsWatchMs;
    expect(isWatchingReturns(completed, late)).toBe(false);
    expect(afterCompletion(completed, { type: "poked" }, late)).toEqual([]);
    const answer = { type: "returns_answered", outcome: statusOutcome.confirmed(null, [half]) } as const;
    expect(afterCompletion(completed, answer, late)).toEqual([]);
  });

  it("does nothing for any state but completed", () => {
    for (const state of transferStates.filter((s) => s !== "completed")) {
      expect(afterCompletion({ ...completed, state }, { type: "poked" }, completedAtMs), state).toEqual([]);
    }
    expect(afterCompletion({ ...completed, completedAtMs: null }, { type: "poked" }, completedAtMs)).toEqual([]);
  });

  it("applies only the returns it has not recorded yet", () => {
    const answer = { type: "returns_answered", outcome: statusOutcome.confirmed(null, [half, rest]) } as const;
    expect(afterCompletion(completed, answer, completedAtMs + 5_000)).toEqual([{ type: "apply_returns", returns: [half, rest] }]);
    expect(afterCompletion({ ...completed, returnIds: ["D1"] }, answer, completedAtMs + 5_000)).toEqual([
      { type: "apply_returns", returns: [rest] },
    ]);
    expect(afterCompletion({ ...completed, returnIds: ["D1", "D2"] }, answer, completedAtMs + 5_000)).toEqual([]);
  });

  it("applies nothing on a confirmed answer without returns, or on any other answer", () => {
    const nowMs = completedAtMs + 5_000;
    for (const outcome of [
      statusOutcome.confirmed(),
      statusOutcome.processing(),
      statusOutcome.notFound(),
      statusOutcome.rejected("late"),
      statusOutcome.unknown("http_503"),
    ]) {
      expect(afterCompletion(completed, { type: "returns_answered", outcome }, nowMs), outcome.kind).toEqual([]);
    }
  });
});
