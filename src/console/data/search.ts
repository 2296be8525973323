// Search by transfer id, end_to_end_id or account id: exact matches only, each one indexed.
import type { Queryable } from "../../db/queryable.ts";
import { accountIdPattern, uuidPattern } from "../../lib/ids.ts";

/** Longer than any id we search by; a longer query finds nothing without asking the database. */
export const queryLengthMax = 128;
const hitsMax = 20;

export type SearchHit = { kind: "transfer"; id: string; matched: "id" | "end_to_end_id"; state: string } | { kind: "account"; id: string };

export async function search(db: Queryable, rawQuery: string): Promise<SearchHit[]> {
  const query = rawQuery.trim();
  if (query === "" || query.length > queryLengthMax) return [];
  const asTransferId = uuidPattern.test(query.toLowerCase()) ? query.toLowerCase() : null;
  const asAccountId = accountIdPattern.test(query) ? query : null;
  const { rows } = await db.query<{
    kind: "transfer" | "account";
    id: string;
    matched: "id" | "end_to_end_id" | null;
    state: string | null;
  }>(
    `(SELECT 'transfer' AS kind, id::text AS id, 'id' AS matched, state FROM transfers WHERE id = $1::uuid)
     UNION ALL
     (SELECT 'transfer', id::text, 'end_to_end_id', state FROM transfers WHERE end_to_end_id = $2 ORDER BY created_at DESC LIMIT $4)
     UNION ALL
     (SELECT 'account', id, NULL, NULL FROM accounts WHERE id = $3 AND kind = 'customer')`,
    [asTransferId, query, asAccountId, hitsMax],
  );
  return rows.map((r) =>
    r.kind === "account" ? { kind: "account", id: r.id } : { kind: "transfer", id: r.id, matched: r.matched ?? "id", state: r.state ?? "" },
  );
}
