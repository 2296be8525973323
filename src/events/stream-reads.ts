// What the live stream reads from the outbox: a transfer's events after a sequence (a resume
// with Last-Event-ID, or the changes since the last one a stream sent), or its latest event (the
// current resource, for a fresh stream). One round trip each, bounded.
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";

export interface StreamedEvent {
  sequence: number;
  data: JsonObject & { state?: unknown };
}

/** More than a stream's lifetime of changes: a resume further behind reads the rest next time. */
export const streamReadMax = 100;

export async function eventsAfter(db: Queryable, transferId: string, afterSequence: number): Promise<StreamedEvent[]> {
  const { rows } = await db.query<{ sequence: number; data: StreamedEvent["data"] }>(
    "SELECT sequence, data FROM transfer_events WHERE transfer_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3",
    [transferId, afterSequence, streamReadMax],
  );
  return rows;
}

export async function latestEvent(db: Queryable, transferId: string): Promise<StreamedEvent | null> {
  const { rows } = await db.query<{ sequence: number; data: StreamedEvent["data"] }>(
    "SELECT sequence, data FROM transfer_events WHERE transfer_id = $1 ORDER BY sequence DESC LIMIT 1",
    [transferId],
  );
  return rows[0] ?? null;
}
