// I16, contestations (CONTRACT §2 "Contestations"): a contestation's returned_cents is its
// transfer's `fraud` returns since it was made, counted here independently of the derivation the
// API uses: by the transfer's event sequence, where a return's transfer.returned event and the
// contestation's first contestation.updated event both took their place under the transfer's
// lock. Contestations exist only on completed transfers, at most one not final per transfer.
// (A return credited twice is I12's: one ledger transaction per return id.)
import type { PoolClient } from "@neondatabase/serverless";

export interface ContestationViolation {
  subject: string;
  detail: string;
}

export async function contestationChecks(db: PoolClient, scope: readonly string[] | null): Promise<ContestationViolation[]> {
  const { rows } = await db.query<{ id: string; transfer_state: string; shown: string; since: string; made_at_sequence: number | null }>(
    `WITH made AS (
       SELECT c.id, c.transfer_id, c.account_id,
              (SELECT min(e.sequence) FROM transfer_events e
                WHERE e.transfer_id = c.transfer_id AND e.type = 'contestation.updated' AND e.data->>'id' = c.id::text) AS made_at_sequence
         FROM contestations c WHERE ($1::text[] IS NULL OR c.account_id = ANY($1)))
     SELECT m.id, t.state AS transfer_state, m.made_at_sequence,
            (contestation_json(m.id)->>'returned_cents') AS shown,
            (SELECT coalesce(sum(r.amount_cents), 0) FROM transfer_returns r
              WHERE r.transfer_id = m.transfer_id AND r.reason = 'fraud'
                AND (SELECT min(e.sequence) FROM transfer_events e
                      WHERE e.transfer_id = m.transfer_id AND e.type = 'transfer.returned'
                        AND e.data->'returns' @> jsonb_build_array(jsonb_build_object('id', r.id))) > m.made_at_sequence)::text AS since
       FROM made m JOIN transfers t ON t.id = m.transfer_id`,
    [scope],
  );
  const found: ContestationViolation[] = [];
  for (const row of rows) {
    if (row.made_at_sequence === null) found.push({ subject: row.id, detail: "no contestation.updated event announces it" });
    if (row.shown !== row.since)
      found.push({ subject: row.id, detail: `returned_cents ${row.shown} but fraud returns since it was made sum to ${row.since}` });
    if (row.transfer_state !== "completed") found.push({ subject: row.id, detail: `contests a transfer in ${row.transfer_state}` });
  }
  const active = await db.query<{ transfer_id: string; n: string }>(
    `SELECT transfer_id, count(*)::text AS n FROM contestations
      WHERE state IN ('open', 'submitted') AND ($1::text[] IS NULL OR account_id = ANY($1))
      GROUP BY transfer_id HAVING count(*) > 1`,
    [scope],
  );
  for (const row of active.rows) found.push({ subject: row.transfer_id, detail: `${row.n} contestations not final at once` });
  return found;
}
