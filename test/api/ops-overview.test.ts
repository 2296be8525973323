// GET /ops/overview (CONTRACT §5). Other files make transfers in the same database at the same
// time, so through HTTP a test knows only that its own mix is inside the figures and that the
// figures agree with themselves (one statement: the minutes sum to the totals). The exact check
// runs the same read in a REPEATABLE READ transaction, where every read shares one snapshot and
// one now(), against the raw rows read beside it.
import type { PoolClient } from "@neondatabase/serverless";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { transferStorySchema } from "../../src/contract/ops-schemas.ts";
import { opsOverviewSchema } from "../../src/contract/overview-schema.ts";
import { transferSchema } from "../../src/contract/schemas.ts";
import { type FailureReason, failureReasons } from "../../src/saga/states.ts";
import { transfersOverview } from "../../src/transfers/overview-reads.ts";
import { personCall } from "../support/access.ts";
import { call, createTransfer, fundedAccount, opsCall, waitForFinalState } from "../support/api.ts";
import { finalStateAtDeadline } from "../support/deadline.ts";
import { filePool } from "../support/pool-test.ts";
import { expectJson, expectProblem, expectValidationProblem, validTransfer } from "./helpers.ts";

const pool = filePool(2);

type Overview = z.infer<typeof opsOverviewSchema>;

const minuteMs = 60_000;

async function overview(minutes?: number): Promise<Overview> {
  const response = await opsCall(`/ops/overview${minutes === undefined ? "" : `?minutes=${minutes}`}`);
  return expectJson(response, 200, opsOverviewSchema);
}

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

/** The figures agree with themselves: one entry per minute, oldest first, summing to the totals. */
function expectConsistent(o: Overview, minutes: number): void {
  const fromMs = Date.parse(o.from);
  expect(fromMs % minuteMs).toBe(0);
  expect(Date.parse(o.to) - fromMs).toBeGreaterThan((minutes - 1) * minuteMs);
  expect(Date.parse(o.to) - fromMs).toBeLessThanOrEqual(minutes * minuteMs);
  for (const byMinute of [o.transfers.by_minute, o.provider.by_minute]) {
    expect(byMinute.map((m) => Date.parse(m.at))).toEqual(Array.from({ length: minutes }, (_, i) => fromMs + i * minuteMs));
  }
  const t = o.transfers;
  expect(t.completed + t.compensated + t.needs_review + t.canceled + t.in_flight).toBe(t.created);
  expect(sum(Object.values(t.compensated_by_reason))).toBe(t.compensated);
  for (const field of ["created", "completed", "compensated", "needs_review"] as const) {
    expect(sum(t.by_minute.map((m) => m[field]))).toBe(t[field]);
  }
  expect(sum(o.provider.by_minute.map((m) => m.calls))).toBe(o.provider.calls);
  expect(sum(o.provider.by_minute.map((m) => m.unknown))).toBe(o.provider.unknown);
  expect(o.provider.answered + o.provider.unknown).toBe(o.provider.calls);
}

describe("GET /ops/overview", () => {
  it("refuses a window that is not a whole number of minutes from 1 to 1440, or an unknown parameter", async () => {
    for (const query of ["minutes=0", "minutes=1441", "minutes=-5", "minutes=1.5", "minutes=abc", "minutes=", "minutes=60&account=x"]) {
      const response = await opsCall(`/ops/overview?${query}`);
      if (query.includes("account")) await expectProblem(response, 400, "validation-failed");
      else await expectValidationProblem(response, "minutes");
    }
  });

  it("answers 60 minutes by default, 1 and 1440 at the bounds, each consistent with itself", async () => {
    const byDefault = await overview();
    expectConsistent(byDefault, 60);
    expectConsistent(await overview(1), 1);
    expectConsistent(await overview(1440), 1440);
    // Other files contest transfers in the same database: the figures are consistent, not zero.
    const { open, nearest_deadline_at: nearest } = byDefault.contestations;
    expect(open === 0 ? nearest === null : nearest !== null).toBe(true);
  });

  it("is read by ops-token and by people signed in through Access, and by nobody else", async () => {
    expectConsistent(await expectJson(await personCall("/ops/overview?minutes=5"), 200, opsOverviewSchema), 5);
    expect((await call("/ops/overview")).status).toBe(401);
  });

  it("finds a known mix of transfers, their provider calls and the review queue", async () => {
    const accountId = await fundedAccount(1_000_000);
    const before = await overview(1440);
    const bodies = [
      validTransfer,
      { ...validTransfer, amount_cents: 1_700 },
      { amount_cents: 900, pix_key: "reject@sandbox.test", pix_key_type: "email" },
      { amount_cents: 1_300, pix_key: "processing@sandbox.test", pix_key_type: "email" },
    ];
    const ids: string[] = [];
    for (const body of bodies) ids.push((await expectJson(await createTransfer(accountId, body), 202, transferSchema)).id);
    const [happy, happy2, rejected, processing] = ids as [string, string, string, string];
    expect((await waitForFinalState(accountId, happy)).state).toBe("completed");
    expect((await waitForFinalState(accountId, happy2)).state).toBe("completed");
    expect((await waitForFinalState(accountId, rejected)).state).toBe("compensated");
    expect((await finalStateAtDeadline(accountId, processing)).state).toBe("needs_review");

    let callsMade = 0;
    for (const id of ids) {
      callsMade += (await expectJson(await opsCall(`/ops/transfers/${id}`), 200, transferStorySchema)).provider_calls.length;
    }
    const after = await overview(1440);
    expectConsistent(after, 1440);
    // Nothing leaves a day's window in a test run and these states are final (needs_review
    // aside: another file may resolve its own), so each figure grew by at least the mix.
    expect(after.transfers.created - before.transfers.created).toBeGreaterThanOrEqual(4);
    expect(after.transfers.completed - before.transfers.completed).toBeGreaterThanOrEqual(2);
    expect(after.transfers.compensated - before.transfers.compensated).toBeGreaterThanOrEqual(1);
    const rejections = (o: Overview): number => o.transfers.compensated_by_reason.provider_rejected;
    expect(rejections(after) - rejections(before)).toBeGreaterThanOrEqual(1);
    expect(after.provider.calls - before.provider.calls).toBeGreaterThanOrEqual(callsMade);
    expect(after.completion_ms.p50).not.toBeNull();
    expect(after.review.needs_review).toBeGreaterThanOrEqual(1);
    expect(after.review.held_cents).toBeGreaterThanOrEqual(1_300);
    expect(Date.parse(after.review.oldest_at ?? "")).toBeLessThanOrEqual(Date.now());

    // The exact figures, one snapshot: the mix is among the raw rows the read counted.
    const session = await pool.connect();
    try {
      await session.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
      const read = opsOverviewSchema.shape;
      const figures = await transfersOverview(session, 1440);
      const expected = await expectedFigures(session, 1440);
      expect({
        from: read.from.parse(figures.from),
        transfers: read.transfers.parse(figures.transfers),
        completion_ms: read.completion_ms.parse(figures.completion_ms),
        // The provider's health comes from its own object (src/alerts/provider-degraded.ts), not this read.
        provider: read.provider.omit({ degraded: true, degraded_since: true }).parse(figures.provider),
        review: read.review.parse(figures.review),
      }).toEqual(expected.figures);
      expect(ids.map((id) => expected.states.get(id))).toEqual(["completed", "completed", "compensated", "needs_review"]);
    } finally {
      await session.query("ROLLBACK");
      session.release();
    }
  });
});

/** The first value whose position in the order reaches the fraction (PostgreSQL's percentile_disc). */
function percentileDisc(sortedValues: number[], fraction: number): number | null {
  if (sortedValues.length === 0) return null;
  return sortedValues[Math.max(Math.ceil(fraction * sortedValues.length) - 1, 0)] ?? null;
}

const microsToIso = (micros: number): string => new Date(Math.floor(micros / 1000)).toISOString();

/** The overview's figures computed here, row by row, from what the same snapshot holds. */
async function expectedFigures(session: PoolClient, minutes: number) {
  const micros = "(extract(epoch FROM $1) * 1000000)::bigint";
  const now = await session.query<{ now_us: string }>(`SELECT ${micros.replace("$1", "now()")} AS now_us`);
  const nowUs = Number(now.rows[0]?.now_us);
  const fromUs = (Math.floor(nowUs / 1000 / minuteMs) - (minutes - 1)) * minuteMs * 1000;
  const fromAt = `to_timestamp(${fromUs} / 1000000.0)`;
  const transfers = await session.query<{
    id: string;
    state: string;
    failure_reason: FailureReason | null;
    created_us: string;
    completed_us: string | null;
  }>(
    `SELECT t.id, t.state, t.failure_reason, ${micros.replace("$1", "t.created_at")} AS created_us,
            (SELECT ${micros.replace("$1", "h.at")} FROM transfer_history h WHERE h.transfer_id = t.id AND h.to_state = 'completed'
              ORDER BY h.id DESC LIMIT 1) AS completed_us
       FROM transfers t WHERE t.created_at >= ${fromAt} AND t.created_at <= now()`,
  );
  const calls = await session.query<{ at_us: string; duration_ms: number; outcome: string }>(
    `SELECT ${micros.replace("$1", "p.at")} AS at_us, p.duration_ms, p.outcome FROM provider_calls p
      WHERE p.at >= ${fromAt} AND p.at <= now()`,
  );
  const review = await session.query<{ amount_cents: string; since_us: string }>(
    `SELECT t.amount_cents, (SELECT ${micros.replace("$1", "h.at")} FROM transfer_history h
              WHERE h.transfer_id = t.id AND h.to_state = 'needs_review' ORDER BY h.id DESC LIMIT 1) AS since_us
       FROM transfers t WHERE t.state = 'needs_review'`,
  );

  const minuteOf = (us: number): number => Math.floor((us - fromUs) / 1000 / minuteMs);
  const byMinute = Array.from({ length: minutes }, (_, i) => ({
    at: new Date(fromUs / 1000 + i * minuteMs).toISOString(),
    created: 0,
    completed: 0,
    compensated: 0,
    needs_review: 0,
  }));
  const totals = { created: 0, completed: 0, compensated: 0, needs_review: 0, canceled: 0, in_flight: 0 };
  const compensatedByReason = Object.fromEntries(failureReasons.map((reason) => [reason, 0])) as Record<FailureReason, number>;
  const completionMs: number[] = [];
  for (const row of transfers.rows) {
    const entry = byMinute[minuteOf(Number(row.created_us))];
    if (entry === undefined) throw new Error(`transfer ${row.id} falls outside the window's minutes`);
    entry.created += 1;
    totals.created += 1;
    if (row.state === "completed" || row.state === "compensated" || row.state === "needs_review") {
      entry[row.state] += 1;
      totals[row.state] += 1;
      if (row.state === "compensated" && row.failure_reason !== null) compensatedByReason[row.failure_reason] += 1;
    } else if (row.state === "canceled") totals.canceled += 1;
    else totals.in_flight += 1;
    if (row.state === "completed" && row.completed_us !== null) {
      completionMs.push(Math.round((Number(row.completed_us) - Number(row.created_us)) / 1000));
    }
  }
  completionMs.sort((a, b) => a - b);

  const callMinutes = byMinute.map((m) => ({ at: m.at, calls: 0, unknown: 0 }));
  const latencyMs: number[] = [];
  let unknown = 0;
  for (const row of calls.rows) {
    const entry = callMinutes[minuteOf(Number(row.at_us))];
    if (entry === undefined) throw new Error("a provider call falls outside the window's minutes");
    const isUnknown = row.outcome.startsWith("unknown:");
    entry.calls += 1;
    entry.unknown += isUnknown ? 1 : 0;
    unknown += isUnknown ? 1 : 0;
    latencyMs.push(row.duration_ms);
  }
  latencyMs.sort((a, b) => a - b);

  const sinceUs = review.rows.map((r) => Number(r.since_us));
  return {
    states: new Map(transfers.rows.map((row) => [row.id, row.state])),
    figures: {
      from: new Date(fromUs / 1000).toISOString(),
      transfers: { ...totals, compensated_by_reason: compensatedByReason, by_minute: byMinute },
      completion_ms: {
        p50: percentileDisc(completionMs, 0.5),
        p95: percentileDisc(completionMs, 0.95),
        p99: percentileDisc(completionMs, 0.99),
      },
      provider: {
        calls: calls.rows.length,
        answered: calls.rows.length - unknown,
        unknown,
        latency_ms: { p50: percentileDisc(latencyMs, 0.5), p95: percentileDisc(latencyMs, 0.95) },
        by_minute: callMinutes,
      },
      review: {
        needs_review: review.rows.length,
        held_cents: sum(review.rows.map((r) => Number(r.amount_cents))),
        oldest_at: sinceUs.length === 0 ? null : microsToIso(Math.min(...sinceUs)),
      },
    },
  };
}
