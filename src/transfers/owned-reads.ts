// A client's own resources (transfers, recurring transfers): one of them by id, or a page of them
// newest first. Each read is one round trip that also tells an unknown account apart (the API
// answers 403 for it); another account's resource is indistinguishable from none.
import type { Queryable } from "../db/queryable.ts";
import { decodePosition, type PageRow, pageOf } from "./page-position.ts";

/**
 * Where a kind of resource lives and the SQL function that renders it. Both are spliced into the
 * query, so they come from this list alone, never from input.
 */
export const ownedKinds = {
  transfer: { table: "transfers", json: "transfer_json" },
  recurring_transfer: { table: "recurring_transfers", json: "recurring_transfer_json" },
} as const;
export type OwnedKind = keyof typeof ownedKinds;

export type OwnedRead<T> = { outcome: "found"; resource: T } | { outcome: "not_found" } | { outcome: "account_not_found" };

export async function ownedResource<T>(db: Queryable, kind: OwnedKind, id: string, accountId: string): Promise<OwnedRead<T>> {
  const { table, json } = ownedKinds[kind];
  const { rows } = await db.query<{ account_exists: boolean; resource: T | null }>(
    `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $2 AND kind = 'customer') AS account_exists,
            (SELECT ${json}(r.id) FROM ${table} r WHERE r.id = $1 AND r.account_id = $2) AS resource`,
    [id, accountId],
  );
  const row = rows[0];
  if (!row?.account_exists) return { outcome: "account_not_found" };
  return row.resource ? { outcome: "found", resource: row.resource } : { outcome: "not_found" };
}

export type OwnedPage<T> =
  | { outcome: "page"; data: T[]; nextPosition: string | null }
  | { outcome: "account_not_found" }
  | { outcome: "bad_cursor" };

/** Newest first; the position is the (created_at, id) of the last row, at full precision. */
export async function ownedPage<T>(
  db: Queryable,
  kind: OwnedKind,
  accountId: string,
  limit: number,
  rawPosition: string | null,
): Promise<OwnedPage<T>> {
  const cursor = rawPosition === null ? null : decodePosition(rawPosition);
  if (rawPosition !== null && cursor === null) return { outcome: "bad_cursor" };
  const { table, json } = ownedKinds[kind];
  const { rows } = await db.query<{ account_exists: boolean; page: PageRow<T>[] | null }>(
    `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $1 AND kind = 'customer') AS account_exists,
            (SELECT jsonb_agg(jsonb_build_object('resource', ${json}(p.id), 'created_at', p.created_at, 'id', p.id)
                              ORDER BY p.created_at DESC, p.id DESC)
               FROM (SELECT id, created_at FROM ${table}
                      WHERE account_id = $1
                        AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
                      ORDER BY created_at DESC, id DESC LIMIT $4) p) AS page`,
    [accountId, cursor?.createdAt ?? null, cursor?.id ?? null, limit + 1],
  );
  const row = rows[0];
  if (!row?.account_exists) return { outcome: "account_not_found" };
  return { outcome: "page", ...pageOf(row.page ?? [], limit) };
}
