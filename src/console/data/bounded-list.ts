// The review queue and the scheduled list are read alike: one statement answers a bounded page
// of items with the count and total of the whole set, so the page never sums a partial list.
import type { Queryable } from "../../db/queryable.ts";

/** What every item of a bounded list is: a transfer of an account, for an amount. */
export interface TransferItem {
  id: string;
  accountId: string;
  amountCents: number;
}

export interface BoundedList<Item> {
  items: Item[];
  /** Every item of the set, not only those listed. */
  count: number;
  totalCents: number;
}

export interface BoundedListQuery {
  /** A SELECT of the whole set; its rows have `id` and `amount_cents`. Its own parameters start at `$2`. */
  set: string;
  /** The jsonb_build_object arguments of one item, over the set's row `s`. */
  item: string;
  /** The page's order: the set's plain column names, comma-separated (ending in `id`, so it is total). */
  orderBy: string;
}

/** A page shows the first 200 of its set: more is a query to narrow, not a page to scroll. */
export const listRowsMax = 200;

/** The reader of one bounded list: its first `rowsMax` items (none for just the figures), the set's parameters after. */
export function boundedList<Item extends TransferItem>({ set, item, orderBy }: BoundedListQuery) {
  const orderOfItems = orderBy
    .split(",")
    .map((column) => `s.${column.trim()}`)
    .join(", ");
  const sql = `WITH bounded_set AS (${set})
     SELECT (SELECT jsonb_agg(jsonb_build_object(${item}) ORDER BY ${orderOfItems})
               FROM (SELECT * FROM bounded_set ORDER BY ${orderBy} LIMIT $1) s) AS items,
            (SELECT count(*) FROM bounded_set) AS count,
            (SELECT coalesce(sum(amount_cents), 0) FROM bounded_set) AS total_cents`;
  return async (db: Queryable, rowsMax: number = listRowsMax, parameters: readonly unknown[] = []): Promise<BoundedList<Item>> => {
    const { rows } = await db.query<{ items: Item[] | null; count: string; total_cents: string }>(sql, [rowsMax, ...parameters]);
    const row = rows[0];
    return { items: row?.items ?? [], count: Number(row?.count ?? 0), totalCents: Number(row?.total_cents ?? 0) };
  };
}
