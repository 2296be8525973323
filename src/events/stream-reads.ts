// What the live stream reads from the outbox: a transfer's events after a sequence (a resume
// with Last-Event-ID, or the changes since the last one a stream sent), or its latest event (the
// current resource, for a fresh stream). One round trip each, bounded.
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";

export interface StreamedEvent {
  sequence: number;
  /** transfer.updated, transfer.returned, or contestation.updated (its data the contestation). */
  type: string;
  data: JsonObject & { state?: unknown };
}

/** More than a stream's lifetime of changes: a resume further behind reads the rest next time. */
export const streamReadMax = 100;

export async function eventsAfter(db: Queryable, transferId: string, afterSequence: number): Promise<StreamedEvent[]> {
  const { rows } = await db.query<StreamedEvent & Record<string, unknown>>(
    "SELECT sequence, type, data FROM transfer_events WHERE transfer_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3",
    [transferId, afterSequence, streamReadMax],
  );
  return rows;
}

/**
 * The transfer as its latest event shows it, with the latest sequence (a contestation's event
 * may come after it: a fresh stream then starts from there, the transfer its first message).
 */
export async function latestEvent(db: Queryable, transferId: string): Promise<StreamedEvent | null> {
  const { rows } = await db.query<StreamedEvent & Record<string, unknown>>(
    `SELECT (SELECT max(sequence) FROM transfer_events WHERE transfer_id = $1) AS sequence, e.type, e.data
       FROM transfer_events e WHERE e.transfer_id = $1 AND e.type <> 'contestation.updated' ORDER BY e.sequence DESC LIMIT 1`,
    [transferId],
  );
  return rows[0] ?? null;
}
