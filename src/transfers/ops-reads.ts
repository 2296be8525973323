// Operator reads: the transfers of every account, and one transfer's whole story (history with its
// evidence, every provider call with its answer, the hold, its returns and their ledger entries).
import type { Queryable } from "../db/queryable.ts";
import type { TransferResource } from "./store.ts";

export interface OpsTransferFilter {
  state: string | null;
  accountId: string | null;
  limit: number;
}

/** Oldest first for a state queue (needs_review is worked oldest first), newest first otherwise. */
export async function listTransfersForOps(db: Queryable, filter: OpsTransferFilter): Promise<TransferResource[]> {
  const order = filter.state === null ? "DESC" : "ASC";
  const { rows } = await db.query<{ resource: TransferResource }>(
    `SELECT transfer_json(t.id) || jsonb_build_object('account_id', t.account_id) AS resource
       FROM transfers t
      WHERE ($1::text IS NULL OR t.state = $1) AND ($2::text IS NULL OR t.account_id = $2)
      ORDER BY t.created_at ${order}, t.id ${order} LIMIT $3`,
    [filter.state, filter.accountId, filter.limit],
  );
  return rows.map((r) => r.resource);
}

/**
 * A history row's actor as /ops and the console show it: who decided. The row stores the kind
 * (`operator`, a CHECKed column the invariants query) and, in its evidence, the person's Access
 * email or `ops-token`, written by the same transition; an operator's row shows the latter.
 */
const historyActor = "CASE WHEN h.actor = 'operator' THEN coalesce(h.evidence->>'operator', h.actor) ELSE h.actor END";

export async function transferStory(db: Queryable, transferId: string): Promise<Record<string, unknown> | null> {
  const { rows } = await db.query<{ story: Record<string, unknown> | null }>(
    `SELECT transfer_json(t.id) || jsonb_build_object(
        'account_id', t.account_id,
        'send_attempts', t.send_attempts,
        'held_before_sending', t.last_sent_at IS NULL,
        'device_id', t.device_id,
        'device_registered', t.device_registered,
        'checks_made', t.checks_made,
        'next_check_at', rfc3339(t.next_check_at),
        'deadline_at', rfc3339(t.deadline_at),
        'history', coalesce((SELECT jsonb_agg(jsonb_build_object('from', h.from_state, 'state', h.to_state, 'at', rfc3339(h.at),
                              'reason', h.reason, 'actor', ${historyActor}, 'evidence', h.evidence) ORDER BY h.id)
                             FROM transfer_history h WHERE h.transfer_id = t.id), '[]'::jsonb),
        'provider_calls', coalesce((SELECT jsonb_agg(jsonb_build_object('kind', p.kind, 'at', rfc3339(p.at), 'outcome', p.outcome,
                              'http_status', p.http_status, 'duration_ms', p.duration_ms, 'detail', p.detail) ORDER BY p.id)
                             FROM provider_calls p WHERE p.transfer_id = t.id), '[]'::jsonb),
        'hold', (SELECT jsonb_build_object('status', hd.status, 'amount_cents', hd.amount_cents,
                          'created_at', rfc3339(hd.created_at), 'resolved_at', rfc3339(hd.resolved_at))
                   FROM holds hd WHERE hd.id = t.id),
        'entries', coalesce((SELECT jsonb_agg(jsonb_build_object('account_id', e.account_id, 'amount_cents', e.amount_cents,
                              'balance_after_cents', e.balance_after_cents, 'at', rfc3339(e.created_at)) ORDER BY e.id)
                             FROM ledger_transactions lt JOIN entries e ON e.transaction_id = lt.id
                            WHERE lt.hold_id = t.id
                               OR lt.id IN (SELECT r.ledger_transaction_id FROM transfer_returns r WHERE r.transfer_id = t.id)),
                            '[]'::jsonb)
      ) AS story
       FROM transfers t WHERE t.id = $1`,
    [transferId],
  );
  return rows[0]?.story ?? null;
}
