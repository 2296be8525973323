// Operators' view of the outbox (GET /ops/events, the console's transfer page): events with
// every delivery attempt. One round trip.
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";

export type OpsEvent = JsonObject;

/** A transfer's events by sequence; without one, the undelivered events (parked first), oldest first. */
export async function eventsForOps(db: Queryable, filter: { transferId: string | null; limit: number }): Promise<OpsEvent[]> {
  const scope =
    filter.transferId === null
      ? "WHERE e.delivered_at IS NULL AND $1::uuid IS NULL ORDER BY e.parked_at IS NULL, e.occurred_at, e.sequence"
      : "WHERE e.transfer_id = $1::uuid ORDER BY e.sequence";
  const { rows } = await db.query<{ event: OpsEvent }>(
    `SELECT jsonb_build_object(
              'id', e.id, 'transfer_id', e.transfer_id, 'type', e.type, 'sequence', e.sequence,
              'occurred_at', rfc3339(e.occurred_at),
              'status', CASE WHEN e.delivered_at IS NOT NULL THEN 'delivered' WHEN e.parked_at IS NOT NULL THEN 'parked' ELSE 'pending' END,
              'next_attempt_at', rfc3339(e.next_attempt_at), 'delivered_at', rfc3339(e.delivered_at), 'parked_at', rfc3339(e.parked_at),
              'data', e.data,
              'attempts', coalesce((SELECT jsonb_agg(jsonb_build_object('at', rfc3339(a.at), 'http_status', a.http_status,
                                                                        'duration_ms', a.duration_ms, 'error', a.error) ORDER BY a.id)
                                      FROM transfer_event_attempts a WHERE a.event_id = e.id), '[]'::jsonb)) AS event
       FROM transfer_events e ${scope} LIMIT $2`,
    [filter.transferId, filter.limit],
  );
  return rows.map((row) => row.event);
}

/**
 * GET /ops/overview's events: how many are not delivered yet (pending or parked) and since when
 * the oldest waits. Each half has its partial index, so it reads the backlog, not the outbox.
 */
export async function undeliveredEventsSummary(db: Queryable): Promise<JsonObject> {
  const { rows } = await db.query<{ summary: JsonObject }>(
    `SELECT jsonb_build_object('undelivered', count(*), 'oldest_undelivered_at', rfc3339(min(u.occurred_at))) AS summary
       FROM (SELECT e.occurred_at FROM transfer_events e WHERE e.delivered_at IS NULL AND e.parked_at IS NULL
             UNION ALL
             SELECT e.occurred_at FROM transfer_events e WHERE e.delivered_at IS NULL AND e.parked_at IS NOT NULL) u`,
  );
  const summary = rows[0]?.summary;
  if (summary === undefined) throw new Error("the undelivered events query returned no row");
  return summary;
}
