// Waits, by reading Postgres directly, until every listed transfer is in one of `states`.

import { sleep } from "../../src/lib/sleep.ts";
import type { BenchContext } from "../lib/context.ts";
import { benchPool } from "../lib/db.ts";

const pollMs = 100;

export async function waitForStates(
  context: BenchContext,
  transferIds: readonly string[],
  states: readonly string[],
  timeoutMs: number,
): Promise<void> {
  const pool = benchPool(context.cluster, 1, "bench-watch");
  try {
    const giveUpAtMs = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await pool.query<{ state: string; n: string }>(
        "SELECT state, count(*) AS n FROM transfers WHERE id = ANY($1::uuid[]) GROUP BY state",
        [transferIds],
      );
      const waiting = rows.filter((row) => !states.includes(row.state));
      const seen = rows.reduce((sum, row) => sum + Number(row.n), 0);
      if (waiting.length === 0 && seen === transferIds.length) return;
      if (Date.now() > giveUpAtMs) {
        const counts = rows.map((row) => `${row.state} ${row.n}`).join(", ");
        throw new Error(`after ${timeoutMs} ms, transfers are not all ${states.join("/")}: ${counts}`);
      }
      await sleep(pollMs);
    }
  } finally {
    await pool.end();
  }
}
