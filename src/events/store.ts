// The outbox's reads and the one write delivery makes (transfer_event_attempted): each one
// round trip, none inside a transaction that an HTTP call could hold open.
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";

export interface PendingEvent {
  id: string;
  transferId: string;
  sequence: number;
  type: string;
  occurredAt: string;
  occurredAtMs: number;
  data: JsonObject;
  attempts: number;
  nextAttemptAtMs: number | null;
  parked: boolean;
}

type PendingRow = {
  id: string;
  transfer_id: string;
  sequence: number;
  type: string;
  occurred_at: string;
  occurred_at_ms: string;
  data: JsonObject;
  attempts: number;
  next_attempt_at_ms: string | null;
  parked: boolean;
};

/** The transfer's earliest undelivered event: the only one that may be sent (order per transfer). */
export async function firstUndelivered(db: Queryable, transferId: string): Promise<PendingEvent | null> {
  const { rows } = await db.query<PendingRow>(
    `SELECT id, transfer_id::text, sequence, type, rfc3339(occurred_at) AS occurred_at, epoch_ms(occurred_at)::text AS occurred_at_ms,
            data, attempts, epoch_ms(next_attempt_at)::text AS next_attempt_at_ms, parked_at IS NOT NULL AS parked
       FROM transfer_events WHERE transfer_id = $1 AND delivered_at IS NULL ORDER BY sequence LIMIT 1`,
    [transferId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    transferId: row.transfer_id,
    sequence: row.sequence,
    type: row.type,
    occurredAt: row.occurred_at,
    occurredAtMs: Number(row.occurred_at_ms),
    data: row.data,
    attempts: row.attempts,
    nextAttemptAtMs: row.next_attempt_at_ms === null ? null : Number(row.next_attempt_at_ms),
    parked: row.parked,
  };
}

export interface AttemptRecord {
  eventId: string;
  attemptsBefore: number;
  httpStatus: number | null;
  durationMs: number;
  error: string | null;
  outcome: "delivered" | "retry" | "parked";
  nextAttemptAtMs: number | null;
}

/** Records an attempt and moves the event; `already_moved` when another deliverer got there first. */
export async function recordAttempt(db: Queryable, attempt: AttemptRecord): Promise<"recorded" | "already_moved"> {
  const { rows } = await db.query<{ result: { outcome: "recorded" | "already_moved" } }>(
    "SELECT transfer_event_attempted($1, $2, $3, $4, $5, $6, $7) AS result",
    [
      attempt.eventId,
      attempt.attemptsBefore,
      attempt.httpStatus,
      attempt.durationMs,
      attempt.error,
      attempt.outcome,
      attempt.nextAttemptAtMs,
    ],
  );
  const outcome = rows[0]?.result.outcome;
  if (!outcome) throw new Error("transfer_event_attempted returned nothing");
  return outcome;
}

/**
 * Transfers whose next event to send is overdue by `overdueMs`: what alarms let fall. Only each
 * transfer's head counts (no earlier undelivered event), and only an unparked one: an event
 * waiting behind a retrying or parked head keeps its first due time and would otherwise look
 * overdue forever, filling the batch and hiding a lost event elsewhere.
 */
export async function transfersWithOverdueEvents(db: Queryable, overdueMs: number, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ transfer_id: string }>(
    `SELECT e.transfer_id::text FROM transfer_events e
      WHERE e.delivered_at IS NULL AND e.parked_at IS NULL AND e.next_attempt_at < now() - $1::bigint * interval '1 millisecond'
        AND NOT EXISTS (SELECT 1 FROM transfer_events earlier
                         WHERE earlier.transfer_id = e.transfer_id AND earlier.sequence < e.sequence AND earlier.delivered_at IS NULL)
      ORDER BY e.next_attempt_at LIMIT $2`,
    [overdueMs, limit],
  );
  return rows.map((row) => row.transfer_id);
}
