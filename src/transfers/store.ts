// The saga record's operations: each is one SQL function call (one round trip).

import type { RuleSettings } from "../config/rule-settings.ts";
import type { Queryable } from "../db/queryable.ts";
import { sqlStringList } from "../db/sql-list.ts";
import type { JsonObject } from "../json.ts";
import type { PixKeyType } from "../lib/ids.ts";
import { assertPath, inFlightStates, type TransferState } from "../saga/states.ts";
import type { SagaChange } from "../saga/transition.ts";
import { type SagaRecord, sagaRecordSchema } from "./saga-record.ts";

export interface OpenTransferInput {
  id: string;
  accountId: string;
  amountCents: number;
  pixKey: string;
  pixKeyType: PixKeyType;
  description: string | null;
  idempotencyKey: string;
  requestFingerprint: string;
  deadlineMs: number;
  /** The São Paulo day and minute of the request (the injected clock of the Pix rules). */
  localDay: string;
  localMinuteOfDay: number;
  /** The same instant, in ms: an operator's limit increase is in force once its time has come. */
  nowMs: number;
  rules: RuleSettings;
  /** The pasted BR Code, or null for a transfer to a key (a dynamic code's key and amount come resolved). */
  brCode?: OpenBrCode | null;
  /** A later São Paulo day to run on, with its first run's slot; absent or null: at once. */
  schedule?: { scheduledFor: string; runAtMs: number } | null;
  /**
   * The sandbox on: the clock fields above are the wall clock's, and transfer_open adds the test
   * clock's offset in its own statement (docs/clock.md). Absent or false: they are business time.
   */
  testClock?: boolean;
  /** The client token's device when DEVICE_RULES is on (the new-device cap judges it); absent or null otherwise. */
  deviceId?: string | null;
}

export interface OpenBrCode {
  text: string;
  kind: "static" | "dynamic";
  /** A static code's fields 59 and 60; null for a dynamic code. */
  merchantName: string | null;
  merchantCity: string | null;
}

/** The client resource exactly as CONTRACT §2 shows it, rendered by transfer_json(). */
export type TransferResource = JsonObject & { id: string; state: string };

export type OpenTransferResult =
  | { outcome: "created"; transferId: string; response: TransferResource; saga: SagaRecord }
  | { outcome: "replayed"; transferId: string; response: TransferResource }
  | { outcome: "key_reused"; transferId: string }
  | { outcome: "account_not_found" }
  | { outcome: "too_many_scheduled" };

export type ApplyResult =
  | { outcome: "applied"; saga: SagaRecord }
  | { outcome: "state_mismatch"; saga: SagaRecord }
  | { outcome: "not_found" };

/** A provider call kept as evidence with the change it justified. */
export interface ProviderCallRecord {
  kind: "send" | "status";
  outcome: string;
  httpStatus: number | null;
  detail: unknown;
  durationMs: number;
}

export async function callJson(db: Queryable, sql: string, values: unknown[]): Promise<Record<string, unknown>> {
  const { rows } = await db.query<{ result: Record<string, unknown> }>(sql, values);
  const result = rows[0]?.result;
  if (!result) throw new Error("transfer function returned nothing");
  return result;
}

/**
 * transfer_open's one argument, each field named as drizzle/functions/transfer_open.sql reads it:
 * every field present (null where it may be), so neither side depends on an order.
 */
interface TransferOpenRecord {
  id: string;
  account_id: string;
  amount_cents: number;
  pix_key: string;
  pix_key_type: PixKeyType;
  description: string | null;
  idempotency_key: string;
  fingerprint: string;
  deadline_ms: number;
  local_day: string;
  local_minute: number;
  /** The instant travels with the rules, which transfer_open hands to every rule it runs. */
  rules: RuleSettings & { now_ms: number };
  br_code: { text: string; kind: OpenBrCode["kind"]; merchant_name: string | null; merchant_city: string | null } | null;
  scheduled_for: string | null;
  run_at_ms: number | null;
  test_clock: boolean;
  device_id: string | null;
}

function transferOpenRecord(input: OpenTransferInput): TransferOpenRecord {
  const brCode = input.brCode ?? null;
  return {
    id: input.id,
    account_id: input.accountId,
    amount_cents: input.amountCents,
    pix_key: input.pixKey,
    pix_key_type: input.pixKeyType,
    description: input.description,
    idempotency_key: input.idempotencyKey,
    fingerprint: input.requestFingerprint,
    deadline_ms: input.deadlineMs,
    local_day: input.localDay,
    local_minute: input.localMinuteOfDay,
    rules: { ...input.rules, now_ms: input.nowMs },
    br_code:
      brCode === null
        ? null
        : { text: brCode.text, kind: brCode.kind, merchant_name: brCode.merchantName, merchant_city: brCode.merchantCity },
    scheduled_for: input.schedule?.scheduledFor ?? null,
    run_at_ms: input.schedule?.runAtMs ?? null,
    test_clock: input.testClock ?? false,
    device_id: input.deviceId ?? null,
  };
}

export async function openTransfer(db: Queryable, input: OpenTransferInput): Promise<OpenTransferResult> {
  const r = await callJson(db, "SELECT transfer_open($1::jsonb) AS result", [JSON.stringify(transferOpenRecord(input))]);
  switch (r.outcome) {
    case "created":
      return {
        outcome: "created",
        transferId: String(r.transfer_id),
        response: r.response as TransferResource,
        saga: sagaRecordSchema.parse(r.saga),
      };
    case "replayed":
      return { outcome: "replayed", transferId: String(r.transfer_id), response: r.response as TransferResource };
    case "key_reused":
      return { outcome: "key_reused", transferId: String(r.transfer_id) };
    case "account_not_found":
      return { outcome: "account_not_found" };
    case "too_many_scheduled":
      return { outcome: "too_many_scheduled" };
    default:
      throw new Error(`transfer_open answered an unknown outcome: ${String(r.outcome)}`);
  }
}

export async function applyChange(
  db: Queryable,
  transferId: string,
  expectedState: TransferState,
  change: SagaChange & { sent: boolean; evidence: unknown },
  call: ProviderCallRecord | null,
): Promise<ApplyResult> {
  // Asserted where it is written: an impossible path is a bug, never sent to the database
  // (whose transfer_history CHECK would refuse it too, from the same table).
  assertPath(expectedState, change.path);
  const changeJson = {
    path: change.path,
    ledger: change.ledger,
    failure_reason: change.failureReason,
    failure_code: change.failureCode,
    end_to_end_id: change.endToEndId,
    checks_made: change.checksMade,
    next_check_at_ms: change.nextCheckAtMs,
    last_sent_at_ms: change.lastSentAtMs,
    sent: change.sent,
    reason: change.reason,
    actor: change.actor,
    evidence: change.evidence ?? null,
  };
  const callJsonValue = call
    ? {
        kind: call.kind,
        outcome: call.outcome,
        http_status: call.httpStatus,
        detail: call.detail ?? null,
        duration_ms: Math.round(call.durationMs),
      }
    : null;
  const r = await callJson(db, "SELECT transfer_apply($1, $2, $3::jsonb, $4::jsonb) AS result", [
    transferId,
    expectedState,
    JSON.stringify(changeJson),
    callJsonValue === null ? null : JSON.stringify(callJsonValue),
  ]);
  if (r.outcome === "not_found") return { outcome: "not_found" };
  const saga = sagaRecordSchema.parse(r.saga);
  if (r.outcome === "applied") return { outcome: "applied", saga };
  if (r.outcome === "state_mismatch") return { outcome: "state_mismatch", saga };
  throw new Error(`transfer_apply answered an unknown outcome: ${String(r.outcome)}`);
}

export async function loadSaga(db: Queryable, transferId: string): Promise<SagaRecord | null> {
  const { rows } = await db.query<{ saga: unknown }>("SELECT transfer_saga_json(t) AS saga FROM transfers t WHERE t.id = $1", [transferId]);
  return rows[0] ? sagaRecordSchema.parse(rows[0].saga) : null;
}

// Literal, not a parameter: the planner matches it to the `transfers_due` index's predicate.
// Without `scheduled`: a scheduled run's next check is a business instant (dueScheduledTransferIds).
const inFlightList = sqlStringList(inFlightStates.filter((state) => state !== "scheduled"));

/** Sagas in flight past their scheduled day whose next check is overdue by more than `overdueMs`, oldest first. */
export async function overdueTransferIds(db: Queryable, overdueMs: number, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM transfers
      WHERE state IN (${inFlightList})
        AND next_check_at < now() - $1 * interval '1 millisecond'
      ORDER BY next_check_at LIMIT $2`,
    [overdueMs, limit],
  );
  return rows.map((r) => r.id);
}
