// GET /ops/audit's read: operator actions, newest first, filtered by account and actor, paged by
// the id of the last row shown.
import type { Queryable } from "../db/queryable.ts";
import type { Json } from "../json.ts";

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  account_id: string | null;
  transfer_id: string | null;
  details: Json;
}

export interface AuditFilter {
  accountId: string | null;
  actor: string | null;
  limit: number;
  /** Only rows older than this id (the cursor). */
  beforeId: number | null;
}

export async function listOperatorActions(
  db: Queryable,
  filter: AuditFilter,
): Promise<{ data: AuditEntry[]; nextBeforeId: number | null }> {
  const { rows } = await db.query<{ entry: AuditEntry }>(
    `SELECT jsonb_build_object('id', a.id::text, 'at', rfc3339(a.at), 'actor', a.actor, 'action', a.action,
                               'account_id', a.account_id, 'transfer_id', a.transfer_id, 'details', a.details) AS entry
       FROM operator_actions a
      WHERE ($1::text IS NULL OR a.account_id = $1) AND ($2::text IS NULL OR a.actor = $2)
        AND ($3::bigint IS NULL OR a.id < $3)
      ORDER BY a.id DESC LIMIT $4`,
    [filter.accountId, filter.actor, filter.beforeId, filter.limit + 1],
  );
  const entries = rows.map((r) => r.entry);
  const shown = entries.slice(0, filter.limit);
  const last = shown.at(-1);
  return { data: shown, nextBeforeId: entries.length > filter.limit && last ? Number(last.id) : null };
}
