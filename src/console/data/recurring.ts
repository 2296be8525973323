// An account's recurring transfers for the console: the latest, each with its occurrences so far
// (their transfers' states, and an evening retry's where there was one). One query, bounded.
import type { Queryable } from "../../db/queryable.ts";

export const recurrencesShownMax = 20;

export interface OccurrenceItem {
  occurrence: number;
  date: string;
  transferId: string;
  state: string;
  retryTransferId: string | null;
  retryState: string | null;
}

export interface RecurrenceItem {
  id: string;
  state: string;
  amountCents: number;
  frequency: string;
  firstDate: string;
  count: number;
  createdAt: string;
  occurrences: OccurrenceItem[];
}

export async function readRecurrences(db: Queryable, accountId: string, rowsMax: number = recurrencesShownMax): Promise<RecurrenceItem[]> {
  const { rows } = await db.query<{ item: RecurrenceItem }>(
    `SELECT jsonb_build_object(
              'id', r.id, 'state', r.state, 'amountCents', r.amount_cents, 'frequency', r.frequency,
              'firstDate', to_char(r.first_date, 'YYYY-MM-DD'), 'count', r.occurrence_count, 'createdAt', rfc3339(r.created_at),
              'occurrences', coalesce((
                SELECT jsonb_agg(jsonb_build_object(
                         'occurrence', o.occurrence, 'date', to_char(o.scheduled_for, 'YYYY-MM-DD'), 'transferId', o.id,
                         'state', o.state, 'retryTransferId', x.id, 'retryState', x.state) ORDER BY o.occurrence)
                  FROM transfers o LEFT JOIN transfers x ON x.retry_of = o.id
                 WHERE o.recurring_transfer_id = r.id AND o.retry_of IS NULL), '[]'::jsonb)) AS item
       FROM recurring_transfers r WHERE r.account_id = $1
      ORDER BY r.created_at DESC, r.id DESC LIMIT $2`,
    [accountId, rowsMax],
  );
  return rows.map((r) => r.item);
}
