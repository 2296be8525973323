// A scheduled transfer's own operations: its run on the day and its owner's cancel, each one SQL
// function call (one round trip) guarded by the `scheduled` state under the row's lock; and the
// sweeper's search for runs whose business instant came. An occurrence of a recurring transfer
// opens what comes after it in the same transaction (`followUps`); `opened` names those
// transfers, whose objects must be woken.

import type { ClockConfig } from "../clock/business-time.ts";
import type { RuleSettings } from "../config/rule-settings.ts";
import type { Queryable } from "../db/queryable.ts";
import { saoPauloClock } from "../lib/sao-paulo-clock.ts";
import type { RecurringFollowUps } from "./recurring-follow-ups.ts";
import { type SagaRecord, sagaRecordSchema } from "./saga-record.ts";
import { type ApplyResult, callJson, type TransferResource } from "./store.ts";

export type CancelResult =
  | { outcome: "canceled"; saga: SagaRecord; response: TransferResource; opened: string[] }
  | { outcome: "not_scheduled"; saga: SagaRecord }
  | { outcome: "not_found" };

export type RunResult = (ApplyResult & { outcome: "not_found" }) | (Exclude<ApplyResult, { outcome: "not_found" }> & { opened: string[] });

function openedOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/**
 * The rules and the hold at `businessNowMs` (transfer_run_scheduled): its São Paulo day and
 * minute, and the instant itself, by which pending limit increases and trusted recipients are
 * judged; `retryAtMs` as the core decided it.
 */
export async function runScheduledTransfer(
  db: Queryable,
  transferId: string,
  businessNowMs: number,
  rules: RuleSettings,
  retryAtMs: number | null,
  followUps: RecurringFollowUps | null = null,
): Promise<RunResult> {
  const clock = saoPauloClock(businessNowMs);
  const r = await callJson(db, "SELECT transfer_run_scheduled($1, $2, $3, $4::jsonb, $5, $6::jsonb) AS result", [
    transferId,
    clock.day,
    clock.minuteOfDay,
    JSON.stringify({ ...rules, now_ms: businessNowMs }),
    retryAtMs,
    followUps === null ? null : JSON.stringify(followUps),
  ]);
  if (r.outcome === "not_found") return { outcome: "not_found" };
  const saga = sagaRecordSchema.parse(r.saga);
  if (r.outcome === "applied") return { outcome: "applied", saga, opened: openedOf(r.opened) };
  if (r.outcome === "state_mismatch") return { outcome: "state_mismatch", saga, opened: [] };
  throw new Error(`transfer_run_scheduled answered an unknown outcome: ${String(r.outcome)}`);
}

export async function cancelScheduledTransfer(
  db: Queryable,
  transferId: string,
  followUps: RecurringFollowUps | null = null,
): Promise<CancelResult> {
  const r = await callJson(db, "SELECT transfer_cancel($1, $2::jsonb) AS result", [
    transferId,
    followUps === null ? null : JSON.stringify(followUps),
  ]);
  if (r.outcome === "not_found") return { outcome: "not_found" };
  const saga = sagaRecordSchema.parse(r.saga);
  if (r.outcome === "canceled") return { outcome: "canceled", saga, response: r.response as TransferResource, opened: openedOf(r.opened) };
  if (r.outcome === "not_scheduled") return { outcome: "not_scheduled", saga };
  throw new Error(`transfer_cancel answered an unknown outcome: ${String(r.outcome)}`);
}

/**
 * Scheduled transfers whose recorded run (a business instant) is more than `overdueMs` past,
 * oldest first. Business time is taken in the statement itself (test_clock_offset(), read only
 * with the sandbox on), so the sweep pays no round trip more for it.
 */
export async function dueScheduledTransferIds(db: Queryable, clock: ClockConfig, overdueMs: number, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM transfers
      WHERE state = 'scheduled'
        AND next_check_at < now() + CASE WHEN $1 THEN test_clock_offset() ELSE interval '0' END - $2 * interval '1 millisecond'
      ORDER BY next_check_at LIMIT $3`,
    [clock.sandboxEnabled, overdueMs, limit],
  );
  return rows.map((r) => r.id);
}
