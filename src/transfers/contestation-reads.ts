// Reads of contestations for clients and operators: one round trip each. A client's read tells an
// unknown account apart (403) and never reveals another account's contestation (404).
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";
import type { ContestationState } from "../saga/contestations.ts";
import type { ContestationResource } from "./contestations.ts";

export type ContestationRead =
  | { outcome: "found"; contestation: ContestationResource }
  | { outcome: "not_found" }
  | { outcome: "account_not_found" };

export async function contestationForAccount(db: Queryable, id: string, accountId: string): Promise<ContestationRead> {
  const { rows } = await db.query<{ account_exists: boolean; resource: ContestationResource | null }>(
    `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $2 AND kind = 'customer') AS account_exists,
            (SELECT contestation_json(c.id) FROM contestations c WHERE c.id = $1 AND c.account_id = $2) AS resource`,
    [id, accountId],
  );
  const row = rows[0];
  if (!row?.account_exists) return { outcome: "account_not_found" };
  return row.resource ? { outcome: "found", contestation: row.resource } : { outcome: "not_found" };
}

/** A transfer's contestations, oldest first (the caller checked the transfer is the client's). */
export async function contestationsOfTransfer(db: Queryable, transferId: string): Promise<ContestationResource[]> {
  const { rows } = await db.query<{ resource: ContestationResource }>(
    "SELECT contestation_json(c.id) AS resource FROM contestations c WHERE c.transfer_id = $1 ORDER BY c.created_at, c.id LIMIT 100",
    [transferId],
  );
  return rows.map((row) => row.resource);
}

/** The operators' view: the client's, with the account, the provider's reference, the deadline's state and the transfer. */
export type OpsContestation = JsonObject & { id: string; transfer_id: string; state: ContestationState; past_deadline: boolean };

const opsColumns = `contestation_json(c.id) || jsonb_build_object(
    'account_id', c.account_id, 'psp_ref', c.psp_ref,
    'past_deadline', c.state IN ('open', 'submitted') AND c.deadline_at <= $1::timestamptz,
    'deadline_alerted_at', rfc3339(c.deadline_alerted_at),
    'transfer', transfer_json(c.transfer_id)) AS item`;

export const opsContestationsListedMax = 200;

/**
 * Contestations for operators, oldest first (CONTRACT §5), or nearest deadline first for the
 * console's queue. `businessNowMs` decides which are past their deadline.
 */
export async function contestationsForOps(
  db: Queryable,
  query: { state: ContestationState | null; order: "oldest" | "nearest_deadline"; limit: number; businessNowMs: number },
): Promise<OpsContestation[]> {
  const order = query.order === "oldest" ? "c.created_at, c.id" : "c.deadline_at, c.id";
  const { rows } = await db.query<{ item: OpsContestation }>(
    `SELECT ${opsColumns} FROM contestations c WHERE ($2::text IS NULL OR c.state = $2) ORDER BY ${order} LIMIT $3`,
    [new Date(query.businessNowMs).toISOString(), query.state, Math.min(query.limit, opsContestationsListedMax)],
  );
  return rows.map((row) => row.item);
}

export async function contestationForOps(db: Queryable, id: string, businessNowMs: number): Promise<OpsContestation | null> {
  const { rows } = await db.query<{ item: OpsContestation }>(`SELECT ${opsColumns} FROM contestations c WHERE c.id = $2`, [
    new Date(businessNowMs).toISOString(),
    id,
  ]);
  return rows[0]?.item ?? null;
}

/** Which transfer a contestation belongs to and whose it is; null when there is none. */
export async function contestationOwner(db: Queryable, id: string): Promise<{ transferId: string; accountId: string } | null> {
  const { rows } = await db.query<{ transfer_id: string; account_id: string }>(
    "SELECT transfer_id, account_id FROM contestations WHERE id = $1",
    [id],
  );
  const row = rows[0];
  return row === undefined ? null : { transferId: row.transfer_id, accountId: row.account_id };
}

/**
 * Transfers whose object must look at a contestation: a check more than `overdueMs` late (its
 * alarm was lost), or a deadline passed by business time and not yet alerted. Bounded.
 */
export async function transfersWithDueContestations(
  db: Queryable,
  overdueMs: number,
  businessNowMs: number,
  limit: number,
): Promise<string[]> {
  const { rows } = await db.query<{ transfer_id: string }>(
    `SELECT DISTINCT transfer_id FROM (
       (SELECT transfer_id FROM contestations WHERE next_check_at IS NOT NULL AND next_check_at < now() - $1 * interval '1 millisecond'
          ORDER BY next_check_at LIMIT $3)
       UNION ALL
       (SELECT transfer_id FROM contestations WHERE state IN ('open', 'submitted') AND deadline_at <= $2::timestamptz
          AND deadline_alerted_at IS NULL ORDER BY deadline_at LIMIT $3)) due`,
    [overdueMs, new Date(businessNowMs).toISOString(), limit],
  );
  return rows.map((row) => row.transfer_id);
}
