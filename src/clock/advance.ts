// Moving the test clock (POST /sandbox/clock): one statement, so concurrent advances both apply
// (the row lock serialises the additions) and a refused one writes nothing.
import type { Queryable } from "../db/queryable.ts";

/** The longest single advance the contract allows: 400 days. */
export const clockAdvanceMsMax = 400 * 24 * 60 * 60 * 1000;

/** Adds `advanceMs` (1 to clockAdvanceMsMax, checked at the edge) to the offset; returns the new offset. */
export async function advanceTestClock(db: Queryable, advanceMs: number): Promise<number> {
  const { rows } = await db.query<{ offset_ms: string }>(
    `INSERT INTO test_clock (singleton, offset_ms, advanced_at) VALUES (true, $1, now())
     ON CONFLICT (singleton) DO UPDATE SET offset_ms = test_clock.offset_ms + excluded.offset_ms, advanced_at = excluded.advanced_at
     RETURNING offset_ms`,
    [advanceMs],
  );
  const row = rows[0];
  if (row === undefined) throw new Error("test clock: the advance returned no row");
  return Number(row.offset_ms);
}
