// transition(saga, event, nowMs) as a table: every state against every event, with the state it
// leads to and every field it persists. Time is only ever the nowMs argument.
import { describe, expect, it } from "vitest";
import { assertPath, type FailureReason, type TransferState, transferStates } from "../../src/saga/states.ts";
import type { SagaTimings } from "../../src/saga/timings.ts";
import {
  type Actor,
  resolveRefusal,
  type SagaChange,
  type SagaCommand,
  type SagaEvent,
  type SagaView,
  type Transition,
  transition,
} from "../../src/saga/transition.ts";
import { advance, persistedChange, sendOutcome, statusOutcome } from "./fixtures.ts";

const timings: SagaTimings = { firstCheckDelayMs: 1_000, checkDelayMsMax: 8_000, deadlineMs: 90_000, notFoundGraceMs: 5_000 };
const deadlineAtMs = 100_000;
const sentAtMs = 10_000; // so the not-found grace window ends at 15_000
const afterDeadlineMs = 150_000;

/** Each state as the Durable Object would load it; after the send, two inconclusive checks made. */
function viewOf(state: TransferState): SagaView {
  if (state === "scheduled") {
    const schedule = { runAtMs: 15_000, shortRuns: 0, eveningRunAtMs: 30_000, recurring: false };
    return { state, deadlineAtMs, checksMade: 0, lastSentAtMs: null, schedule, pinnedBrCode: false };
  }
  const sent = state !== "started" && state !== "funds_reserved" && state !== "canceled";
  return { state, deadlineAtMs, checksMade: sent ? 2 : 0, lastSentAtMs: sent ? sentAtMs : null, schedule: null, pinnedBrCode: false };
}

// biome-ignore format: a table reads best as a grid
const events = {
  "due":                                                      { nowMs: 20_000,          event: { type: "due" } },
  "due after the deadline":                                   { nowMs: afterDeadlineMs, event: { type: "due" } },
  "send accepted processing":                                 { nowMs: 20_000,          event: { type: "send_answered", outcome: sendOutcome.accepted("processing", "E2E-1") } },
  "send accepted processing near the deadline":               { nowMs: 99_500,          event: { type: "send_answered", outcome: sendOutcome.accepted("processing", "E2E-1") } },
  "send accepted processing after the deadline":              { nowMs: afterDeadlineMs, event: { type: "send_answered", outcome: sendOutcome.accepted("processing", null) } },
  "send accepted confirmed":                                  { nowMs: 20_000,          event: { type: "send_answered", outcome: sendOutcome.accepted("confirmed", "E2E-1") } },
  "send rejected":                                            { nowMs: 20_000,          event: { type: "send_answered", outcome: sendOutcome.rejected("invalid_key") } },
  "send unknown":                                             { nowMs: 20_000,          event: { type: "send_answered", outcome: sendOutcome.unknown("timeout after 400 ms") } },
  "send unknown after the deadline":                          { nowMs: afterDeadlineMs, event: { type: "send_answered", outcome: sendOutcome.unknown("http 503") } },
  "status confirmed":                                         { nowMs: 20_000,          event: { type: "status_answered", outcome: statusOutcome.confirmed("E2E-1") } },
  "status confirmed after the deadline":                      { nowMs: afterDeadlineMs, event: { type: "status_answered", outcome: statusOutcome.confirmed("E2E-1") } },
  "status rejected":                                          { nowMs: 20_000,          event: { type: "status_answered", outcome: statusOutcome.rejected("AM04") } },
  "status rejected after the deadline":                       { nowMs: afterDeadlineMs, event: { type: "status_answered", outcome: statusOutcome.rejected("AM04") } },
  "status not_found within the grace window":                 { nowMs: 12_000,          event: { type: "status_answered", outcome: statusOutcome.notFound() } },
  "status not_found 1 ms before the grace window ends":       { nowMs: 14_999,          event: { type: "status_answered", outcome: statusOutcome.notFound() } },
  "status not_found as the grace window ends":                { nowMs: 15_000,          event: { type: "status_answered", outcome: statusOutcome.notFound() } },
  "status not_found after the grace window":                  { nowMs: 20_000,          event: { type: "status_answered", outcome: statusOutcome.notFound() } },
  "status not_found after the grace window and the deadline": { nowMs: afterDeadlineMs, event: { type: "status_answered", outcome: statusOutcome.notFound() } },
  "status processing":                                        { nowMs: 20_000,          event: { type: "status_answered", outcome: statusOutcome.processing() } },
  "status processing near the deadline":                      { nowMs: 98_000,          event: { type: "status_answered", outcome: statusOutcome.processing() } },
  "status processing at the deadline":                        { nowMs: deadlineAtMs,    event: { type: "status_answered", outcome: statusOutcome.processing() } },
  "status processing after the deadline":                     { nowMs: afterDeadlineMs, event: { type: "status_answered", outcome: statusOutcome.processing() } },
  "status unknown":                                           { nowMs: 20_000,          event: { type: "status_answered", outcome: statusOutcome.unknown("http 503") } },
  "status unknown at the deadline":                           { nowMs: deadlineAtMs,    event: { type: "status_answered", outcome: statusOutcome.unknown("http 503") } },
  "status unknown after the deadline":                        { nowMs: afterDeadlineMs, event: { type: "status_answered", outcome: statusOutcome.unknown("http 503") } },
  "operator sent":                                            { nowMs: 20_000,          event: { type: "operator_resolved", outcome: "sent", note: "bank statement shows E2E-9" } },
  "operator not_sent":                                        { nowMs: 20_000,          event: { type: "operator_resolved", outcome: "not_sent", note: "PSP confirms nothing left" } },
} satisfies Record<string, { nowMs: number; event: SagaEvent }>;
type EventLabel = keyof typeof events;
const eventLabels = Object.keys(events) as EventLabel[];

type Persists = [
  from: TransferState,
  on: EventLabel,
  to: TransferState,
  path: TransferState[],
  ledger: "settle" | "release" | null,
  failureReason: FailureReason | null,
  failureCode: string | null,
  endToEndId: string | null,
  checksMade: number,
  /** When the object's alarm fires next (it arms from the persisted record); null: never. */
  nextCheckAtMs: number | null,
  lastSentAtMs: number | null,
  actor: Actor,
  /** Words the operator-facing reason must contain. */
  reasonHas: string,
];
type Commands = [
  from: TransferState,
  on: EventLabel,
  expected: { command: "send_to_provider" | "check_provider_status" } | { command: "run_scheduled"; retryAtMs: number | null },
];
type Row = Persists | Commands;

// Every (state, event) pair that does something; every pair not listed must do nothing. The
// submitted, compensating and needs_review views carry checksMade 2 and lastSentAtMs sentAtMs.
// biome-ignore format: a table reads best as a grid
const rows: Row[] = [
  // from            event                                                       to                path                             ledger     failureReason         failureCode    endToEndId checks nextCheckAtMs    lastSentAtMs     actor       reason has
  // started: transfer_open leaves it in the transaction that entered it (hold, limits, review), so
  // the core never acts on it.
  // scheduled: its slot (15_000) has come; too little available then is retried at its evening
  // slot (30_000) unless that has passed too. Nothing else reaches it before its day.
  ["scheduled",      "due",                                                      { command: "run_scheduled", retryAtMs: 30_000 }],
  ["scheduled",      "due after the deadline",                                   { command: "run_scheduled", retryAtMs: null }],
  // due: the alarm fired. A half-done compensation is finished; null failure fields keep the recorded ones.
  ["funds_reserved", "due",                                                      { command: "send_to_provider" }],
  ["funds_reserved", "due after the deadline",                                   { command: "send_to_provider" }],
  ["submitted",      "due",                                                      { command: "check_provider_status" }],
  ["submitted",      "due after the deadline",                                   { command: "check_provider_status" }],
  ["compensating",   "due",                                                      "compensated",    ["compensated"],                 "release", null,                 null,          null,      2,     null,            sentAtMs,        "saga",     "retrying compensation"],
  ["compensating",   "due after the deadline",                                   "compensated",    ["compensated"],                 "release", null,                 null,          null,      2,     null,            sentAtMs,        "saga",     "retrying compensation"],
  // funds_reserved: the send's answer. Past the deadline the first check lands on the (past) deadline: it runs at once.
  ["funds_reserved", "send accepted processing",                                 "submitted",      ["submitted"],                   null,      null,                 null,          "E2E-1",   0,     21_000,          20_000,          "provider", "accepted"],
  ["funds_reserved", "send accepted processing near the deadline",               "submitted",      ["submitted"],                   null,      null,                 null,          "E2E-1",   0,     deadlineAtMs,    99_500,          "provider", "accepted"],
  ["funds_reserved", "send accepted processing after the deadline",              "submitted",      ["submitted"],                   null,      null,                 null,          null,      0,     deadlineAtMs,    afterDeadlineMs, "provider", "accepted"],
  ["funds_reserved", "send accepted confirmed",                                  "completed",      ["submitted", "completed"],      "settle",  null,                 null,          "E2E-1",   0,     null,            20_000,          "provider", "confirmed on send"],
  ["funds_reserved", "send rejected",                                            "compensated",    ["compensating", "compensated"], "release", "provider_rejected",  "invalid_key", null,      0,     null,            null,            "provider", "rejected the order: invalid_key"],
  ["funds_reserved", "send unknown",                                             "submitted",      ["submitted"],                   null,      null,                 null,          null,      0,     21_000,          20_000,          "saga",     "unknown (timeout after 400 ms)"],
  ["funds_reserved", "send unknown after the deadline",                          "submitted",      ["submitted"],                   null,      null,                 null,          null,      0,     deadlineAtMs,    afterDeadlineMs, "saga",     "unknown (http 503)"],
  // submitted: a status answer. Definitive answers count whenever they come.
  ["submitted",      "status confirmed",                                         "completed",      ["completed"],                   "settle",  null,                 null,          "E2E-1",   2,     null,            sentAtMs,        "provider", "confirmed"],
  ["submitted",      "status confirmed after the deadline",                      "completed",      ["completed"],                   "settle",  null,                 null,          "E2E-1",   2,     null,            sentAtMs,        "provider", "confirmed"],
  ["submitted",      "status rejected",                                          "compensated",    ["compensating", "compensated"], "release", "provider_rejected",  "AM04",        null,      2,     null,            sentAtMs,        "provider", "rejected the payment: AM04"],
  ["submitted",      "status rejected after the deadline",                       "compensated",    ["compensating", "compensated"], "release", "provider_rejected",  "AM04",        null,      2,     null,            sentAtMs,        "provider", "rejected the payment: AM04"],
  // not_found: as processing inside the grace window (next delay checkDelayMs(3) = 8_000); compensated from its end on.
  ["submitted",      "status not_found within the grace window",                 "submitted",      [],                              null,      null,                 null,          null,      3,     20_000,          sentAtMs,        "saga",     "grace window"],
  ["submitted",      "status not_found 1 ms before the grace window ends",       "submitted",      [],                              null,      null,                 null,          null,      3,     22_999,          sentAtMs,        "saga",     "grace window"],
  ["submitted",      "status not_found as the grace window ends",                "compensated",    ["compensating", "compensated"], "release", "not_sent",           null,          null,      2,     null,            sentAtMs,        "provider", "after the grace window"],
  ["submitted",      "status not_found after the grace window",                  "compensated",    ["compensating", "compensated"], "release", "not_sent",           null,          null,      2,     null,            sentAtMs,        "provider", "after the grace window"],
  ["submitted",      "status not_found after the grace window and the deadline", "compensated",    ["compensating", "compensated"], "release", "not_sent",           null,          null,      2,     null,            sentAtMs,        "provider", "after the grace window"],
  // processing / unknown: check again with backoff, capped at the deadline; from the deadline on, needs_review.
  ["submitted",      "status processing",                                        "submitted",      [],                              null,      null,                 null,          null,      3,     28_000,          sentAtMs,        "saga",     "still processing"],
  ["submitted",      "status processing near the deadline",                      "submitted",      [],                              null,      null,                 null,          null,      3,     deadlineAtMs,    sentAtMs,        "saga",     "still processing"],
  ["submitted",      "status processing at the deadline",                        "needs_review",   ["needs_review"],                null,      null,                 null,          null,      2,     null,            sentAtMs,        "saga",     "hold kept"],
  ["submitted",      "status processing after the deadline",                     "needs_review",   ["needs_review"],                null,      null,                 null,          null,      2,     null,            sentAtMs,        "saga",     "hold kept"],
  ["submitted",      "status unknown",                                           "submitted",      [],                              null,      null,                 null,          null,      3,     28_000,          sentAtMs,        "saga",     "status unknown (http 503)"],
  ["submitted",      "status unknown at the deadline",                           "needs_review",   ["needs_review"],                null,      null,                 null,          null,      2,     null,            sentAtMs,        "saga",     "hold kept"],
  ["submitted",      "status unknown after the deadline",                        "needs_review",   ["needs_review"],                null,      null,                 null,          null,      2,     null,            sentAtMs,        "saga",     "hold kept"],
  // needs_review: only an operator decides.
  ["needs_review",   "operator sent",                                            "completed",      ["completed"],                   "settle",  null,                 null,          null,      2,     null,            sentAtMs,        "operator", "operator: bank statement shows E2E-9"],
  ["needs_review",   "operator not_sent",                                        "compensated",    ["compensated"],                 "release", "not_sent",           null,          null,      2,     null,            sentAtMs,        "operator", "operator: PSP confirms nothing left"],
];

function rowFor(state: TransferState, on: EventLabel): Row | undefined {
  return rows.find((r) => r[0] === state && r[1] === on);
}

function expectedTransition(row: Row): Transition {
  if (row.length === 3) {
    const expected = row[2];
    const command: SagaCommand =
      expected.command === "run_scheduled" ? { type: expected.command, retryAtMs: expected.retryAtMs } : { type: expected.command };
    return { state: row[0], commands: [command] };
  }
  const [, , to, path, ledger, failureReason, failureCode, endToEndId, checksMade, nextCheckAtMs, lastSentAtMs, actor, reasonHas] = row;
  const reason: string = expect.stringContaining(reasonHas);
  const change: SagaChange = {
    path,
    ledger,
    failureReason,
    failureCode,
    endToEndId,
    checksMade,
    nextCheckAtMs,
    lastSentAtMs,
    actor,
    reason,
  };
  const commands: SagaCommand[] = [{ type: "persist", change }];
  return { state: to, commands };
}

function run(state: TransferState, on: EventLabel, view: SagaView = viewOf(state)): Transition {
  const { event, nowMs } = events[on];
  return transition(view, event, nowMs, timings);
}

const matrix = transferStates.flatMap((state) => eventLabels.map((on) => ({ state, on, row: rowFor(state, on) })));

describe("transition: every state against every event", () => {
  it("has one expectation per (state, event) pair it acts on, each for a known state and event", () => {
    const keys = rows.map((r) => `${r[0]} / ${r[1]}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(matrix).toHaveLength(transferStates.length * eventLabels.length);
  });

  it.each(matrix.filter((m) => m.row !== undefined))("$state + $on", ({ state, on, row }) => {
    if (row === undefined) throw new Error("filtered above");
    const result = run(state, on);
    expect(result).toEqual(expectedTransition(row));
    const change = persistedChange(result);
    if (change !== null) expect(() => assertPath(state, change.path)).not.toThrow();
  });

  it.each(matrix.filter((m) => m.row === undefined))("ignores $on in $state", ({ state, on }) => {
    expect(run(state, on)).toEqual({ state, commands: [] });
  });
});

describe("transition: behaviours", () => {
  it("keeps the hold when the provider times out", () => {
    const result = run("funds_reserved", "send unknown");
    expect(result.state).toBe("submitted");
    expect(persistedChange(result)).toMatchObject({ ledger: null, failureReason: null, lastSentAtMs: 20_000, nextCheckAtMs: 21_000 });
  });

  it("never compensates on an unknown send, whatever the reason or the time", () => {
    for (const why of ["timeout", "connection reset", "http 500", "http 408", "http 429", "answer contradicts the order"]) {
      for (const nowMs of [0, 20_000, deadlineAtMs - 1, deadlineAtMs, afterDeadlineMs]) {
        const change = persistedChange(
          transition(viewOf("funds_reserved"), { type: "send_answered", outcome: sendOutcome.unknown(why) }, nowMs, timings),
        );
        expect(change?.path).toEqual(["submitted"]);
        expect(change?.ledger).toBeNull();
        expect(change?.failureReason).toBeNull();
      }
    }
  });

  it("never compensates on an unknown status: it checks again, then hands over with the hold kept", () => {
    for (const nowMs of [sentAtMs, 20_000, deadlineAtMs - 1, deadlineAtMs, afterDeadlineMs]) {
      const change = persistedChange(
        transition(viewOf("submitted"), { type: "status_answered", outcome: statusOutcome.unknown("http 503") }, nowMs, timings),
      );
      expect(change?.ledger).toBeNull();
      expect(change?.path).toEqual(nowMs >= deadlineAtMs ? ["needs_review"] : []);
    }
  });

  it("sends to needs_review at the deadline with the hold kept", () => {
    const result = run("submitted", "status processing at the deadline");
    expect(result.state).toBe("needs_review");
    expect(persistedChange(result)).toMatchObject({ path: ["needs_review"], ledger: null, failureReason: null, nextCheckAtMs: null });
  });

  it("checks again 1 ms before the deadline, capping the next check at the deadline", () => {
    const result = transition(
      viewOf("submitted"),
      { type: "status_answered", outcome: statusOutcome.processing() },
      deadlineAtMs - 1,
      timings,
    );
    expect(result.state).toBe("submitted");
    expect(persistedChange(result)?.nextCheckAtMs).toBe(deadlineAtMs);
  });

  it("compensates not_found only after the grace window", () => {
    const notFound: SagaEvent = { type: "status_answered", outcome: statusOutcome.notFound() };
    const graceEndsAtMs = sentAtMs + timings.notFoundGraceMs;
    for (const nowMs of [sentAtMs, sentAtMs + 1, graceEndsAtMs - 1]) {
      expect(transition(viewOf("submitted"), notFound, nowMs, timings).state, `at ${nowMs}`).toBe("submitted");
    }
    for (const nowMs of [graceEndsAtMs, graceEndsAtMs + 1, deadlineAtMs, afterDeadlineMs]) {
      expect(transition(viewOf("submitted"), notFound, nowMs, timings).state, `at ${nowMs}`).toBe("compensated");
    }
  });

  it("treats not_found inside the grace window at the deadline as inconclusive: needs_review, hold kept", () => {
    const view: SagaView = { ...viewOf("submitted"), lastSentAtMs: 98_000 };
    const result = transition(view, { type: "status_answered", outcome: statusOutcome.notFound() }, deadlineAtMs, timings);
    expect(result.state).toBe("needs_review");
    expect(persistedChange(result)).toMatchObject({ ledger: null, failureReason: null });
  });

  it("never compensates not_found when the send time is unknown (lastSentAtMs null)", () => {
    const view: SagaView = { ...viewOf("submitted"), lastSentAtMs: null };
    const notFound: SagaEvent = { type: "status_answered", outcome: statusOutcome.notFound() };
    expect(persistedChange(transition(view, notFound, 20_000, timings))).toMatchObject({ path: [], ledger: null, checksMade: 3 });
    expect(persistedChange(transition(view, notFound, afterDeadlineMs, timings))).toMatchObject({ path: ["needs_review"], ledger: null });
  });

  it("ignores answers that arrive in a state they do not apply to", () => {
    const late: { state: TransferState; event: SagaEvent }[] = [
      { state: "submitted", event: { type: "send_answered", outcome: sendOutcome.rejected("invalid_key") } },
      { state: "needs_review", event: { type: "send_answered", outcome: sendOutcome.accepted("confirmed", "E2E-1") } },
      { state: "funds_reserved", event: { type: "status_answered", outcome: statusOutcome.rejected("AM04") } },
      { state: "compensating", event: { type: "status_answered", outcome: statusOutcome.confirmed("E2E-1") } },
      // A late confirmation does not settle a saga an operator owns.
      { state: "needs_review", event: { type: "status_answered", outcome: statusOutcome.confirmed("E2E-1") } },
      { state: "submitted", event: { type: "operator_resolved", outcome: "not_sent", note: "too early" } },
      { state: "started", event: { type: "due" } },
      { state: "needs_review", event: { type: "due" } },
    ];
    for (const { state, event } of late) {
      expect(transition(viewOf(state), event, 20_000, timings), `${event.type} in ${state}`).toEqual({ state, commands: [] });
    }
  });

  it("nothing leaves a terminal state", () => {
    for (const state of ["completed", "compensated"] as const) {
      for (const on of eventLabels) expect(run(state, on), `${on} in ${state}`).toEqual({ state, commands: [] });
    }
  });

  it("settles only when it completes and releases only when it compensates, never both", () => {
    for (const { state, on } of matrix) {
      const result = run(state, on);
      const ledger = persistedChange(result)?.ledger ?? null;
      if (ledger === "settle") expect(result.state, `${on} in ${state}`).toBe("completed");
      if (ledger === "release") expect(result.state, `${on} in ${state}`).toBe("compensated");
    }
  });

  it("records the provider's rejection code and the operator's note for operators", () => {
    const rejected = persistedChange(
      transition(viewOf("funds_reserved"), { type: "send_answered", outcome: sendOutcome.rejected("limit_exceeded") }, 1, timings),
    );
    expect(rejected).toMatchObject({ failureCode: "limit_exceeded", reason: expect.stringContaining("limit_exceeded") });
    const resolved = persistedChange(
      transition(viewOf("needs_review"), { type: "operator_resolved", outcome: "sent", note: "ticket 42" }, 1, timings),
    );
    expect(resolved).toMatchObject({ actor: "operator", reason: "operator: ticket 42" });
  });

  it("resolves a transfer held before sending with approve or not_sent, never sent", () => {
    const held: SagaView = { ...viewOf("needs_review"), lastSentAtMs: null, checksMade: 0 };
    const resolve = (view: SagaView, outcome: "sent" | "not_sent" | "approve") =>
      transition(view, { type: "operator_resolved", outcome, note: "n" }, 5, timings);
    expect(persistedChange(resolve(held, "approve"))).toMatchObject({ path: ["funds_reserved"], ledger: null, nextCheckAtMs: 5 });
    expect(persistedChange(resolve(held, "not_sent"))).toMatchObject({
      path: ["compensated"],
      ledger: "release",
      failureReason: "not_sent",
    });
    expect(resolve(held, "sent").commands).toEqual([]);
    expect(resolveRefusal(held, "sent")).toBe("no_pix_to_settle");
    const sent = viewOf("needs_review");
    expect(resolve(sent, "approve").commands).toEqual([]);
    expect(resolveRefusal(sent, "approve")).toBe("nothing_to_approve");
    expect(resolveRefusal(viewOf("submitted"), "not_sent")).toBe("not_in_review");
    expect(resolveRefusal(sent, "sent")).toBeNull();
  });

  it("keeps the stored end-to-end id when a confirmation carries none", () => {
    const change = persistedChange(
      transition(viewOf("submitted"), { type: "status_answered", outcome: statusOutcome.confirmed(null) }, 20_000, timings),
    );
    expect(change).toMatchObject({ path: ["completed"], ledger: "settle", endToEndId: null });
  });

  it("is pure: the same input gives the same output and the view is not mutated", () => {
    for (const { state, on } of matrix) {
      const view = Object.freeze(viewOf(state));
      expect(run(state, on, view)).toEqual(run(state, on, view));
      expect(view).toEqual(viewOf(state));
    }
  });
});

describe("transition: whole sagas, driven by the clock", () => {
  /** Feeds events at given times, reloading the view from each persisted change. */
  function drive(view: SagaView, steps: { nowMs: number; event: SagaEvent }[]): { view: SagaView; results: Transition[] } {
    const results: Transition[] = [];
    for (const { nowMs, event } of steps) {
      const result = transition(view, event, nowMs, timings);
      const change = persistedChange(result);
      if (change !== null) assertPath(view.state, change.path);
      results.push(result);
      view = advance(view, result);
    }
    return { view, results };
  }

  // As transfer_open leaves a transfer whose hold succeeded, its first check due at once.
  const start: SagaView = {
    state: "funds_reserved",
    deadlineAtMs: 50_000,
    checksMade: 0,
    lastSentAtMs: null,
    schedule: null,
    pinnedBrCode: false,
  };
  const due: SagaEvent = { type: "due" };
  const processing: SagaEvent = { type: "status_answered", outcome: statusOutcome.processing() };

  it("backs off 1, 2, 4, 8, 8 ... seconds between checks, caps the last at the deadline, then hands over", () => {
    const steps = [
      { nowMs: 0, event: due },
      { nowMs: 0, event: { type: "send_answered", outcome: sendOutcome.accepted("processing", "E2E-1") } satisfies SagaEvent },
    ];
    let { view, results } = drive(start, steps);
    const checkTimes: number[] = [];
    const nextCheckAtMs = (result: Transition | undefined) =>
      result === undefined ? null : (persistedChange(result)?.nextCheckAtMs ?? null);
    let nextAtMs = nextCheckAtMs(results.at(-1));
    while (nextAtMs !== null) {
      checkTimes.push(nextAtMs);
      ({ view, results } = drive(view, [
        { nowMs: nextAtMs, event: due },
        { nowMs: nextAtMs, event: processing },
      ]));
      expect(results[0]?.commands).toEqual([{ type: "check_provider_status" }]);
      nextAtMs = nextCheckAtMs(results[1]);
    }
    expect(checkTimes).toEqual([1_000, 3_000, 7_000, 15_000, 23_000, 31_000, 39_000, 47_000, 50_000]);
    expect(view.state).toBe("needs_review");
  });

  it("compensates a lost send (timeout, then not_found) as not_sent once the grace window has passed", () => {
    const { view, results } = drive(start, [
      { nowMs: 0, event: due },
      { nowMs: 400, event: { type: "send_answered", outcome: sendOutcome.unknown("timeout") } },
      { nowMs: 1_400, event: { type: "status_answered", outcome: statusOutcome.notFound() } },
      { nowMs: 2_400, event: { type: "status_answered", outcome: statusOutcome.notFound() } },
      { nowMs: 5_400, event: { type: "status_answered", outcome: statusOutcome.notFound() } },
    ]);
    expect(results.map((r) => r.state)).toEqual(["funds_reserved", "submitted", "submitted", "submitted", "compensated"]);
    expect(results.map((r) => persistedChange(r)?.failureReason ?? null)).toEqual([null, null, null, null, "not_sent"]);
    expect(results.flatMap((r) => persistedChange(r)?.ledger ?? [])).toEqual(["release"]);
    expect(view.state).toBe("compensated");
  });

  it("completes a send that errored after the Pix was made, once the status confirms", () => {
    const { view, results } = drive(start, [
      { nowMs: 0, event: due },
      { nowMs: 50, event: { type: "send_answered", outcome: sendOutcome.unknown("http 500") } },
      { nowMs: 1_050, event: { type: "status_answered", outcome: statusOutcome.unknown("http 503") } },
      { nowMs: 2_050, event: { type: "status_answered", outcome: statusOutcome.confirmed("E2E-7") } },
    ]);
    expect(view.state).toBe("completed");
    expect(results.flatMap((r) => persistedChange(r)?.ledger ?? [])).toEqual(["settle"]);
  });

  it("does not settle twice when a confirmation arrives again", () => {
    const confirmed: SagaEvent = { type: "status_answered", outcome: statusOutcome.confirmed("E2E-7") };
    const { results } = drive(viewOf("submitted"), [
      { nowMs: 20_000, event: confirmed },
      { nowMs: 20_001, event: confirmed },
    ]);
    expect(results.map((r) => persistedChange(r)?.ledger ?? null)).toEqual(["settle", null]);
  });
});
