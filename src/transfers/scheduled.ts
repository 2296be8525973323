// A scheduled transfer's own operations: its run on the day and its owner's cancel. Each is one
// SQL function call (one round trip), guarded by the `scheduled` state under the row's lock.

import type { RuleSettings } from "../config/rule-settings.ts";
import type { Queryable } from "../db/queryable.ts";
import { saoPauloClock } from "../lib/sao-paulo-clock.ts";
import { type SagaRecord, sagaRecordSchema } from "./saga-record.ts";
import { type ApplyResult, callJson, type TransferResource } from "./store.ts";

export type CancelResult =
  | { outcome: "canceled"; saga: SagaRecord; response: TransferResource }
  | { outcome: "not_scheduled"; saga: SagaRecord }
  | { outcome: "not_found" };

/**
 * The rules and the hold at `nowMs` (transfer_run_scheduled): its São Paulo day and minute, and
 * the instant itself, by which pending limit increases and trusted recipients are judged;
 * `retryAtMs` as the core decided it.
 */
export async function runScheduledTransfer(
  db: Queryable,
  transferId: string,
  nowMs: number,
  rules: RuleSettings,
  retryAtMs: number | null,
): Promise<ApplyResult> {
  const clock = saoPauloClock(nowMs);
  const r = await callJson(db, "SELECT transfer_run_scheduled($1, $2, $3, $4::jsonb, $5) AS result", [
    transferId,
    clock.day,
    clock.minuteOfDay,
    JSON.stringify({ ...rules, now_ms: nowMs }),
    retryAtMs,
  ]);
  if (r.outcome === "not_found") return { outcome: "not_found" };
  const saga = sagaRecordSchema.parse(r.saga);
  if (r.outcome === "applied") return { outcome: "applied", saga };
  if (r.outcome === "state_mismatch") return { outcome: "state_mismatch", saga };
  throw new Error(`transfer_run_scheduled answered an unknown outcome: ${String(r.outcome)}`);
}

export async function cancelScheduledTransfer(db: Queryable, transferId: string): Promise<CancelResult> {
  const r = await callJson(db, "SELECT transfer_cancel($1) AS result", [transferId]);
  if (r.outcome === "not_found") return { outcome: "not_found" };
  const saga = sagaRecordSchema.parse(r.saga);
  if (r.outcome === "canceled") return { outcome: "canceled", saga, response: r.response as TransferResource };
  if (r.outcome === "not_scheduled") return { outcome: "not_scheduled", saga };
  throw new Error(`transfer_cancel answered an unknown outcome: ${String(r.outcome)}`);
}
