// GET /ops/overview's transfer, provider and review figures (CONTRACT §5), in one statement so
// the totals, the minutes and the queue are one snapshot: the minutes always sum to the totals.
// It only reads; the cost of a day's window is in docs/performance.md ("The overview").
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";
import { failureReasons, transferStates } from "../saga/states.ts";

/**
 * The window's bounds: from a minute's start (`minutes` whole minutes, the current one last) to
 * now. `minutesParameter` is the placeholder (`$1`) that holds the minutes in the caller's statement.
 */
export function windowBoundsSql(minutesParameter: string): string {
  return `SELECT date_bin('1 minute', now(), timestamptz 'epoch') - (${minutesParameter}::int - 1) * interval '1 minute' AS from_at,
                 now() AS to_at`;
}

/**
 * `in_flight` is every state the saga still advances (scheduled included: created in the window
 * for a later day, not yet run); `needs_review` waits for a person and has its own count, so
 * completed, compensated, needs_review, canceled and in_flight partition `created`.
 */
const overviewSql = `
WITH bounds AS (${windowBoundsSql("$1")}),
minutes AS (
  SELECT generate_series(b.from_at, date_bin('1 minute', b.to_at, timestamptz 'epoch'), interval '1 minute') AS at FROM bounds b
),
windowed AS (
  -- state = ANY(every state) lets transfers_by_state (state, created_at) serve the window: one
  -- index range per state instead of a scan of every transfer ever made.
  SELECT t.id, t.state, t.failure_reason, t.created_at, date_bin('1 minute', t.created_at, timestamptz 'epoch') AS minute
    FROM transfers t, bounds b
   WHERE t.state = ANY($2::text[]) AND t.created_at >= b.from_at AND t.created_at <= b.to_at
),
transfer_minutes AS (
  SELECT w.minute, count(*) AS created,
         count(*) FILTER (WHERE w.state = 'completed') AS completed,
         count(*) FILTER (WHERE w.state = 'compensated') AS compensated,
         count(*) FILTER (WHERE w.state = 'needs_review') AS needs_review,
         count(*) FILTER (WHERE w.state = 'canceled') AS canceled
    FROM windowed w GROUP BY w.minute
),
completion AS (
  SELECT round(extract(epoch FROM (
           SELECT h.at FROM transfer_history h WHERE h.transfer_id = w.id AND h.to_state = 'completed' ORDER BY h.id DESC LIMIT 1
         ) - w.created_at) * 1000)::bigint AS ms
    FROM windowed w WHERE w.state = 'completed'
),
calls AS (
  -- The view of every call: one index range per kind on each of its tables
  -- (transfer_history_calls_by_kind_time, provider_calls_apart_by_kind_time).
  SELECT date_bin('1 minute', p.at, timestamptz 'epoch') AS minute, p.duration_ms, p.outcome LIKE 'unknown:%' AS unknown
    FROM provider_calls p, bounds b
   WHERE p.kind = ANY('{send,status}'::text[]) AND p.at >= b.from_at AND p.at <= b.to_at
),
call_minutes AS (
  SELECT c.minute, count(*) AS calls, count(*) FILTER (WHERE c.unknown) AS unknown FROM calls c GROUP BY c.minute
),
-- Every reason present, zero when none: a figure the console shows (and links) whatever happened.
compensated_by_reason AS (
  SELECT jsonb_build_object(${failureReasons.map((reason) => `'${reason}', count(*) FILTER (WHERE w.failure_reason = '${reason}')`).join(", ")}) AS counts
    FROM windowed w WHERE w.state = 'compensated'
),
review AS (
  SELECT t.amount_cents,
         (SELECT h.at FROM transfer_history h WHERE h.transfer_id = t.id AND h.to_state = 'needs_review' ORDER BY h.id DESC LIMIT 1) AS since
    FROM transfers t WHERE t.state = 'needs_review'
)
SELECT jsonb_build_object(
  'from', (SELECT rfc3339(from_at) FROM bounds),
  'to', (SELECT rfc3339(to_at) FROM bounds),
  'transfers', (
    SELECT jsonb_build_object(
      'created', coalesce(sum(tm.created), 0),
      'completed', coalesce(sum(tm.completed), 0),
      'compensated', coalesce(sum(tm.compensated), 0),
      'compensated_by_reason', (SELECT cr.counts FROM compensated_by_reason cr),
      'needs_review', coalesce(sum(tm.needs_review), 0),
      'canceled', coalesce(sum(tm.canceled), 0),
      'in_flight', coalesce(sum(tm.created - tm.completed - tm.compensated - tm.needs_review - tm.canceled), 0),
      'by_minute', jsonb_agg(jsonb_build_object('at', rfc3339(m.at), 'created', coalesce(tm.created, 0),
                             'completed', coalesce(tm.completed, 0), 'compensated', coalesce(tm.compensated, 0),
                             'needs_review', coalesce(tm.needs_review, 0)) ORDER BY m.at))
      FROM minutes m LEFT JOIN transfer_minutes tm ON tm.minute = m.at),
  'completion_ms', (
    SELECT jsonb_build_object(
      'p50', percentile_disc(0.5) WITHIN GROUP (ORDER BY c.ms),
      'p95', percentile_disc(0.95) WITHIN GROUP (ORDER BY c.ms),
      'p99', percentile_disc(0.99) WITHIN GROUP (ORDER BY c.ms))
      FROM completion c),
  'provider', (
    SELECT jsonb_build_object(
      'calls', coalesce(sum(cm.calls), 0),
      'answered', coalesce(sum(cm.calls - cm.unknown), 0),
      'unknown', coalesce(sum(cm.unknown), 0),
      'latency_ms', (SELECT jsonb_build_object(
                       'p50', percentile_disc(0.5) WITHIN GROUP (ORDER BY c.duration_ms),
                       'p95', percentile_disc(0.95) WITHIN GROUP (ORDER BY c.duration_ms)) FROM calls c),
      'by_minute', jsonb_agg(jsonb_build_object('at', rfc3339(m.at), 'calls', coalesce(cm.calls, 0),
                             'unknown', coalesce(cm.unknown, 0)) ORDER BY m.at))
      FROM minutes m LEFT JOIN call_minutes cm ON cm.minute = m.at),
  'review', (
    SELECT jsonb_build_object('needs_review', count(*), 'held_cents', coalesce(sum(r.amount_cents), 0), 'oldest_at', rfc3339(min(r.since)))
      FROM review r)
) AS overview`;

/**
 * The transfers created in the last `minutes` by their current state (the compensated ones also
 * by their failure_reason), their completion times,
 * the provider calls made in the window (an `unknown:` outcome is a call that said nothing:
 * timeout, 5xx, unreadable), and the review queue as of now. `minutes` is already bounded.
 */
export async function transfersOverview(db: Queryable, minutes: number): Promise<JsonObject> {
  const { rows } = await db.query<{ overview: JsonObject }>(overviewSql, [minutes, transferStates]);
  const overview = rows[0]?.overview;
  if (overview === undefined) throw new Error("the overview query returned no row");
  return overview;
}
