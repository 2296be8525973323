// The review queue and the scheduled list are read alike: one statement answers a bounded page
// of items with the count and total of the whole set, so the page never sums a partial list.
import type { Queryable } from "../../db/queryable.ts";

export interface BoundedList<Item> {
  items: Item[];
  /** Every item of the set, not only those listed. */
  count: number;
  totalCents: number;
}

/** `sql` takes the row bound as $1 and answers one row: `items` (a JSON array), `count` and `total_cents`. */
export async function readBoundedList<Item>(db: Queryable, sql: string, rowsMax: number): Promise<BoundedList<Item>> {
  const { rows } = await db.query<{ items: Item[] | null; count: string; total_cents: string }>(sql, [rowsMax]);
  const row = rows[0];
  return { items: row?.items ?? [], count: Number(row?.count ?? 0), totalCents: Number(row?.total_cents ?? 0) };
}
