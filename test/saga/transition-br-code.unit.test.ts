// A transfer paying a dynamic BR Code (CONTRACT §2): the code is resolved again before every send
// and resend, and only an unchanged charge is sent. Every state of such a transfer against every
// event that concerns it, as a table; every pair not listed does nothing. Time is only nowMs.
import { describe, expect, it } from "vitest";
import type { BrCodeCheck } from "../../src/saga/answers.ts";
import { type TransferState, transferStates } from "../../src/saga/states.ts";
import type { SagaTimings } from "../../src/saga/timings.ts";
import { type SagaChange, type SagaCommand, type SagaEvent, type SagaView, transition } from "../../src/saga/transition.ts";
import { statusOutcome } from "./fixtures.ts";

const timings: SagaTimings = { firstCheckDelayMs: 1_000, checkDelayMsMax: 8_000, deadlineMs: 90_000, notFoundGraceMs: 5_000 };
const deadlineAtMs = 100_000;
const sentAtMs = 10_000;
const afterDeadlineMs = 150_000;

/** Each state of a transfer paying a dynamic code; after the send, two inconclusive checks made. */
function pinnedView(state: TransferState): SagaView {
  const sent = state === "submitted" || state === "compensating" || state === "needs_review" || state === "completed";
  const schedule = state === "scheduled" ? { runAtMs: 15_000, shortRuns: 0, eveningRunAtMs: 30_000, recurring: false } : null;
  return { state, deadlineAtMs, checksMade: sent ? 2 : 0, lastSentAtMs: sent ? sentAtMs : null, schedule, pinnedBrCode: true };
}

const unchanged: BrCodeCheck = { kind: "unchanged" };
const raised: BrCodeCheck = { kind: "changed", what: "amount 600 -> 650" };
const silent: BrCodeCheck = { kind: "unknown", why: "http_503" };

// biome-ignore format: a table reads best as a grid
const events = {
  "due":                                      { nowMs: 20_000,          event: { type: "due" } },
  "due after the deadline":                   { nowMs: afterDeadlineMs, event: { type: "due" } },
  "not_found after the grace window":         { nowMs: 20_000,          event: { type: "status_answered", outcome: statusOutcome.notFound("resend") } },
  "not_found after the deadline":             { nowMs: afterDeadlineMs, event: { type: "status_answered", outcome: statusOutcome.notFound("resend") } },
  "before the send: unchanged":               { nowMs: 20_000,          event: { type: "br_code_checked", before: "send", outcome: unchanged } },
  "before the send: changed":                 { nowMs: 20_000,          event: { type: "br_code_checked", before: "send", outcome: raised } },
  "before the send: unknown":                 { nowMs: 20_000,          event: { type: "br_code_checked", before: "send", outcome: silent } },
  "before the send: unknown past deadline":   { nowMs: afterDeadlineMs, event: { type: "br_code_checked", before: "send", outcome: silent } },
  "before the resend: unchanged":             { nowMs: 20_000,          event: { type: "br_code_checked", before: "resend", outcome: unchanged } },
  "before the resend: changed":               { nowMs: 20_000,          event: { type: "br_code_checked", before: "resend", outcome: raised } },
  "before the resend: unknown":               { nowMs: 20_000,          event: { type: "br_code_checked", before: "resend", outcome: silent } },
  "before the resend: unknown past deadline": { nowMs: afterDeadlineMs, event: { type: "br_code_checked", before: "resend", outcome: silent } },
} satisfies Record<string, { nowMs: number; event: SagaEvent }>;
type EventLabel = keyof typeof events;
const eventLabels = Object.keys(events) as EventLabel[];

type Expected = { to: TransferState; commands: SagaCommand["type"][]; change?: Partial<SagaChange> };
const released = { ledger: "release", failureReason: "not_sent", failureCode: "br_code_changed", actor: "saga" } as const;

// Only the rows that act; submitted's own status checks and the scheduled run are the key
// transfer's (transition.test.ts) and show here only as the commands they give.
// biome-ignore format: a table reads best as a grid
const rows: [TransferState, EventLabel, Expected][] = [
  ["scheduled",      "due",                                      { to: "scheduled",      commands: ["run_scheduled"] }],
  ["scheduled",      "due after the deadline",                   { to: "scheduled",      commands: ["run_scheduled"] }],
  // The first send (after the hold, an approval, a scheduled run, a crash) starts with a check.
  ["funds_reserved", "due",                                      { to: "funds_reserved", commands: ["check_br_code"] }],
  ["funds_reserved", "due after the deadline",                   { to: "funds_reserved", commands: ["check_br_code"] }],
  ["funds_reserved", "before the send: unchanged",               { to: "funds_reserved", commands: ["send_to_provider"] }],
  ["funds_reserved", "before the send: changed",                 { to: "compensated",    commands: ["persist"], change: { ...released, path: ["compensating", "compensated"], lastSentAtMs: null } }],
  ["funds_reserved", "before the send: unknown",                 { to: "funds_reserved", commands: ["persist"], change: { path: [], ledger: null, checksMade: 1, nextCheckAtMs: 22_000, lastSentAtMs: null } }],
  ["funds_reserved", "before the send: unknown past deadline",   { to: "needs_review",   commands: ["persist"], change: { path: ["needs_review"], ledger: null, lastSentAtMs: null } }],
  ["submitted",      "due",                                      { to: "submitted",      commands: ["check_provider_status"] }],
  ["submitted",      "due after the deadline",                   { to: "submitted",      commands: ["check_provider_status"] }],
  // A not-found past the grace window: the check is recorded, then the code checked before the resend.
  ["submitted",      "not_found after the grace window",         { to: "submitted",      commands: ["persist", "check_br_code"], change: { path: [], nextCheckAtMs: 21_000 } }],
  ["submitted",      "not_found after the deadline",             { to: "needs_review",   commands: ["persist"], change: { path: ["needs_review"], ledger: null } }],
  ["submitted",      "before the resend: unchanged",             { to: "submitted",      commands: ["resend_to_provider"] }],
  ["submitted",      "before the resend: changed",               { to: "compensated",    commands: ["persist"], change: { ...released, path: ["compensating", "compensated"], lastSentAtMs: sentAtMs } }],
  ["submitted",      "before the resend: unknown",               { to: "submitted",      commands: ["persist"], change: { path: [], ledger: null, checksMade: 3, nextCheckAtMs: 28_000 } }],
  ["submitted",      "before the resend: unknown past deadline", { to: "needs_review",   commands: ["persist"], change: { path: ["needs_review"], ledger: null } }],
  ["compensating",   "due",                                      { to: "compensated",    commands: ["persist"], change: { path: ["compensated"], ledger: "release" } }],
  ["compensating",   "due after the deadline",                   { to: "compensated",    commands: ["persist"], change: { path: ["compensated"], ledger: "release" } }],
];

const matrix = transferStates.flatMap((state) =>
  eventLabels.map((on) => ({ state, on, expected: rows.find((r) => r[0] === state && r[1] === on)?.[2] })),
);

function run(state: TransferState, on: EventLabel) {
  const { event, nowMs } = events[on];
  return transition(pinnedView(state), event, nowMs, timings);
}

describe("transition of a transfer paying a dynamic BR Code: every state against every event", () => {
  it("has one row per (state, event) pair it acts on", () => {
    const keys = rows.map((r) => `${r[0]} / ${r[1]}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(matrix.filter((m) => m.expected !== undefined))("$state + $on", ({ state, on, expected }) => {
    if (expected === undefined) throw new Error("filtered above");
    const result = run(state, on);
    expect(result.state).toBe(expected.to);
    expect(result.commands.map((c) => c.type)).toEqual(expected.commands);
    const check = result.commands.find((c) => c.type === "check_br_code");
    if (check !== undefined) expect(check.before).toBe(on.includes("not_found") ? "resend" : "send");
    const change = result.commands.find((c) => c.type === "persist")?.change;
    if (expected.change !== undefined) expect(change).toMatchObject(expected.change);
  });

  it.each(matrix.filter((m) => m.expected === undefined))("ignores $on in $state", ({ state, on }) => {
    expect(run(state, on)).toEqual({ state, commands: [] });
  });
});

describe("a BR Code check", () => {
  it("says why in the history: the change, or the unanswered resolve", () => {
    const changed = run("funds_reserved", "before the send: changed").commands.find((c) => c.type === "persist");
    expect(changed?.change.reason).toContain("amount 600 -> 650");
    const unknown = run("funds_reserved", "before the send: unknown").commands.find((c) => c.type === "persist");
    expect(unknown?.change.reason).toContain("http_503");
  });

  it("does nothing for a transfer that pays a key: it never asked for one", () => {
    const keyTransfer: SagaView = { ...pinnedView("funds_reserved"), pinnedBrCode: false };
    expect(transition(keyTransfer, events["before the send: changed"].event, 20_000, timings)).toEqual({
      state: "funds_reserved",
      commands: [],
    });
    expect(transition(keyTransfer, { type: "due" }, 20_000, timings).commands).toEqual([{ type: "send_to_provider" }]);
  });
});
