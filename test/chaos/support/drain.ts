// Waits for a scenario's transfers to settle (completed, compensated or needs_review) after the
// faults stop, and measures how long that took. The sweeper only pokes sagas a minute overdue;
// to stand in for that minute, sagas overdue by `rescueAfterMs` are backdated and swept, and
// counted, so a saga that only the sweeper could save shows up in the chaos table.
import type { Pool } from "@neondatabase/serverless";
import { sleep } from "../../../src/lib/sleep.ts";
import { opsCall } from "../../support/api.ts";
import { tally } from "../../support/faults.ts";

export interface DrainResult {
  drainMs: number;
  /** Transfers still in flight when the time ran out. */
  stuck: { id: string; state: string }[];
  sweeperRescues: number;
}

const pollEveryMs = 200;

export async function drain(
  pool: Pool,
  transferIds: readonly string[],
  options: { timeoutMs: number; rescueAfterMs: number; label: string },
): Promise<DrainResult> {
  const startedAtMs = Date.now();
  let sweeperRescues = 0;
  for (;;) {
    const { rows } = await pool.query<{ id: string; state: string; overdue: boolean }>(
      `SELECT id::text, state, next_check_at < now() - $2::bigint * interval '1 millisecond' AS overdue FROM transfers
        WHERE id::text = ANY($1) AND state IN ('started', 'funds_reserved', 'submitted', 'compensating')`,
      [transferIds, options.rescueAfterMs],
    );
    const elapsedMs = Date.now() - startedAtMs;
    if (rows.length === 0 || elapsedMs > options.timeoutMs) {
      await tally(
        { sweeper_rescues: sweeperRescues, stuck_after_drain: rows.length },
        { [`drain_ms.${options.label}`]: rows.length === 0 ? elapsedMs : options.timeoutMs },
      );
      return { drainMs: elapsedMs, stuck: rows.map((r) => ({ id: r.id, state: r.state })), sweeperRescues };
    }
    const overdue = rows.filter((r) => r.overdue).map((r) => r.id);
    if (overdue.length > 0) {
      await pool.query("UPDATE transfers SET next_check_at = now() - interval '2 minutes' WHERE id::text = ANY($1)", [overdue]);
      const swept = await opsCall("/ops/sweep", { method: "POST" });
      await swept.body?.cancel();
      sweeperRescues += overdue.length;
    }
    await sleep(pollEveryMs);
  }
}

/** States of the given transfers, counted, for the outcome mix. */
export async function tallyOutcomes(pool: Pool, transferIds: readonly string[]): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ state: string; failure_reason: string | null; n: string }>(
    `SELECT state, failure_reason, count(*)::text AS n FROM transfers WHERE id::text = ANY($1) GROUP BY state, failure_reason`,
    [transferIds],
  );
  const outcomes: Record<string, number> = {};
  for (const r of rows) {
    const name = r.failure_reason === null ? r.state : `${r.state}:${r.failure_reason}`;
    outcomes[`outcome.${name}`] = Number(r.n);
  }
  await tally({ ...outcomes, transfers: transferIds.length });
  return outcomes;
}
