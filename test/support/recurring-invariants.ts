// I15, recurring transfers (CONTRACT §2): every occurrence runs at most once on its date, plus at
// most one evening retry, opened only after the occurrence found too little available, on the
// same date, itself never retried; at most one occurrence of a recurrence waits; no more
// occurrences than the recurrence's count; nothing waits for a canceled recurrence.
// SQL over the caller's snapshot, scoped to accounts like the other checks.
import type { PoolClient } from "@neondatabase/serverless";

export interface RecurringFinding {
  subject: string;
  detail: string;
}

export async function recurringChecks(db: PoolClient, scope: readonly string[] | null): Promise<RecurringFinding[]> {
  const { rows } = await db.query<RecurringFinding>(
    `WITH r AS (SELECT * FROM recurring_transfers WHERE ($1::text[] IS NULL OR account_id = ANY($1))),
          t AS (SELECT t.*, EXISTS (SELECT 1 FROM transfer_history h WHERE h.transfer_id = t.id AND h.to_state = 'started') AS ran
                  FROM transfers t JOIN r ON r.id = t.recurring_transfer_id)
     SELECT recurring_transfer_id::text AS subject,
            count(*) || ' occurrences ran on ' || scheduled_for || ', at most one may' AS detail
       FROM t WHERE retry_of IS NULL AND ran GROUP BY recurring_transfer_id, scheduled_for HAVING count(*) > 1
     UNION ALL
     SELECT recurring_transfer_id::text, count(*) || ' transfers are occurrence ' || occurrence
       FROM t WHERE retry_of IS NULL GROUP BY recurring_transfer_id, occurrence HAVING count(*) > 1
     UNION ALL
     SELECT retry_of::text, count(*) || ' retries of one occurrence, at most one may run'
       FROM t WHERE retry_of IS NOT NULL GROUP BY retry_of HAVING count(*) > 1
     UNION ALL
     SELECT x.id::text, 'a retry of ' || o.id || ', which is ' || o.state || ' ' || coalesce(o.failure_reason, '') ||
                        CASE WHEN o.retry_of IS NOT NULL THEN ' and itself a retry' ELSE '' END ||
                        CASE WHEN x.scheduled_for <> o.scheduled_for THEN ', on another date' ELSE '' END
       FROM t x JOIN transfers o ON o.id = x.retry_of
      WHERE o.retry_of IS NOT NULL OR x.scheduled_for <> o.scheduled_for
         OR o.state <> 'compensated' OR o.failure_reason IS DISTINCT FROM 'insufficient_funds'
     UNION ALL
     SELECT r.id::text, count(t.id) || ' occurrences wait to run, at most one may'
       FROM r JOIN t ON t.recurring_transfer_id = r.id AND t.retry_of IS NULL AND t.state = 'scheduled'
      GROUP BY r.id HAVING count(t.id) > 1
     UNION ALL
     SELECT r.id::text, max(t.occurrence) || ' occurrences opened, more than its count of ' || r.occurrence_count
       FROM r JOIN t ON t.recurring_transfer_id = r.id GROUP BY r.id, r.occurrence_count HAVING max(t.occurrence) > r.occurrence_count
     UNION ALL
     SELECT r.id::text, 'canceled, yet its transfer ' || t.id || ' still waits'
       FROM r JOIN t ON t.recurring_transfer_id = r.id WHERE r.state = 'canceled' AND t.state = 'scheduled'`,
    [scope],
  );
  return rows;
}
