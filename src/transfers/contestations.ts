// The contestation record's operations (CONTRACT §2 "Contestations"): each one SQL statement,
// one round trip. contestation_open and contestation_apply write, under the transfer's lock and
// with the contestation.updated event; the rest read.
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";
import {
  type ContestationReason,
  type ContestationState,
  type ContestationView,
  contestationStates,
  isActive,
} from "../saga/contestations.ts";

/** The client resource exactly as CONTRACT §2 shows it, rendered by contestation_json(). */
export type ContestationResource = JsonObject & { id: string; transfer_id: string; state: ContestationState };

export interface OpenContestationInput {
  id: string;
  accountId: string;
  transferId: string;
  idempotencyKey: string;
  requestFingerprint: string;
  reason: ContestationReason;
  details: string;
  /**
   * The instant the 80-day window is judged at and the 11-day deadline counted from: business
   * time itself, or with `testClock` the wall clock, to which the statement adds the test
   * clock's offset (no round trip more; docs/clock.md).
   */
  nowMs: number;
  /** The sandbox is on: business time is the test clock's, now and at the transfer's completion. */
  testClock: boolean;
  /** The provider takes contestations: the object forwards it at once. */
  askProvider: boolean;
}

export type OpenContestationResult =
  | { outcome: "created" | "replayed"; id: string; transferId: string; response: ContestationResource }
  | { outcome: "key_reused" | "transfer_not_found" | "window_closed" | "wholly_returned" | "already_contested" }
  | { outcome: "not_completed"; state: string };

export async function openContestation(db: Queryable, input: OpenContestationInput): Promise<OpenContestationResult> {
  const record = {
    id: input.id,
    account_id: input.accountId,
    transfer_id: input.transferId,
    idempotency_key: input.idempotencyKey,
    fingerprint: input.requestFingerprint,
    reason: input.reason,
    details: input.details,
    now: new Date(input.nowMs).toISOString(),
    test_clock: input.testClock,
    ask_provider: input.askProvider,
  };
  const { rows } = await db.query<{ result: Record<string, unknown> }>("SELECT contestation_open($1::jsonb) AS result", [
    JSON.stringify(record),
  ]);
  const result = rows[0]?.result;
  if (result === undefined) throw new Error("contestation_open returned nothing");
  switch (result.outcome) {
    case "created":
    case "replayed":
      return {
        outcome: result.outcome,
        id: String(result.id),
        transferId: String(result.transfer_id),
        response: result.response as ContestationResource,
      };
    case "not_completed":
      return { outcome: "not_completed", state: String(result.state) };
    case "key_reused":
    case "transfer_not_found":
    case "window_closed":
    case "wholly_returned":
    case "already_contested":
      return { outcome: result.outcome };
    default:
      throw new Error(`contestation_open returned an unknown outcome: ${JSON.stringify(result)}`);
  }
}

/** A change of a contestation (contestation_apply's p_change); times as epoch ms, null clears. */
export interface ContestationChange {
  state?: ContestationState;
  pspRef?: string;
  /** Business time. */
  submittedAtMs?: number;
  decidedAtMs?: number;
  deadlineAlertedAtMs?: number;
  /** Wall clock. */
  nextCheckAtMs?: number | null;
  refundWatchUntilMs?: number | null;
  checksMade?: number;
  audit?: { actor: string; action: "contestation_submitted" | "contestation_decided"; note: string };
}

export type ContestationApplyResult = { outcome: "applied" | "state_mismatch"; state: ContestationState } | { outcome: "not_found" };

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export async function applyContestation(
  db: Queryable,
  id: string,
  expected: ContestationState,
  change: ContestationChange,
): Promise<ContestationApplyResult> {
  const body: Record<string, unknown> = {};
  if (change.state !== undefined) body.state = change.state;
  if (change.pspRef !== undefined) body.psp_ref = change.pspRef;
  if (change.submittedAtMs !== undefined) body.submitted_at = iso(change.submittedAtMs);
  if (change.decidedAtMs !== undefined) body.decided_at = iso(change.decidedAtMs);
  if (change.nextCheckAtMs !== undefined) body.next_check_at = iso(change.nextCheckAtMs);
  if (change.refundWatchUntilMs !== undefined) body.refund_watch_until = iso(change.refundWatchUntilMs);
  if (change.checksMade !== undefined) body.checks_made = change.checksMade;
  if (change.deadlineAlertedAtMs !== undefined) body.deadline_alerted_at = iso(change.deadlineAlertedAtMs);
  if (change.audit !== undefined) body.audit = change.audit;
  const { rows } = await db.query<{ result: { outcome: string; state?: string } }>(
    "SELECT contestation_apply($1, $2, $3::jsonb) AS result",
    [id, expected, JSON.stringify(body)],
  );
  const result = rows[0]?.result;
  if (result?.outcome === "not_found") return { outcome: "not_found" };
  if ((result?.outcome === "applied" || result?.outcome === "state_mismatch") && isState(result.state)) {
    return { outcome: result.outcome, state: result.state };
  }
  throw new Error(`contestation_apply returned an unknown result: ${JSON.stringify(result)}`);
}

function isState(value: unknown): value is ContestationState {
  return typeof value === "string" && (contestationStates as readonly string[]).includes(value);
}

/** What the transfer's object works from: the core's view and when to act. */
export interface ContestationRecord extends ContestationView {
  id: string;
  transferId: string;
  accountId: string;
  reason: ContestationReason;
  details: string;
  nextCheckAtMs: number | null;
  deadlineAtMs: number;
  deadlineAlerted: boolean;
}

const recordColumns = `c.id, c.transfer_id, c.account_id, c.state, c.reason, c.details, c.psp_ref, c.checks_made,
  epoch_ms(c.next_check_at) AS next_check_at_ms, epoch_ms(c.refund_watch_until) AS refund_watch_until_ms,
  epoch_ms(c.deadline_at) AS deadline_at_ms, c.deadline_alerted_at IS NOT NULL AS deadline_alerted,
  contestation_fraud_cents(c.transfer_id) - c.fraud_cents_before AS returned_cents`;

interface RecordRow extends Record<string, unknown> {
  id: string;
  transfer_id: string;
  account_id: string;
  state: ContestationState;
  reason: ContestationReason;
  details: string;
  psp_ref: string | null;
  checks_made: number;
  next_check_at_ms: string | number | null;
  refund_watch_until_ms: string | number | null;
  deadline_at_ms: string | number;
  deadline_alerted: boolean;
  returned_cents: string | number;
}

const msOrNull = (value: string | number | null): number | null => (value === null ? null : Number(value));

function recordOf(row: RecordRow): ContestationRecord {
  return {
    id: row.id,
    transferId: row.transfer_id,
    accountId: row.account_id,
    state: row.state,
    reason: row.reason,
    details: row.details,
    pspRef: row.psp_ref,
    checksMade: row.checks_made,
    nextCheckAtMs: msOrNull(row.next_check_at_ms),
    refundWatchUntilMs: msOrNull(row.refund_watch_until_ms),
    deadlineAtMs: Number(row.deadline_at_ms),
    deadlineAlerted: row.deadline_alerted,
    returnedCents: Number(row.returned_cents),
  };
}

/** A transfer's contestations that still need its object: not final, or waiting for their refund. */
export async function workingContestations(db: Queryable, transferId: string): Promise<ContestationRecord[]> {
  const { rows } = await db.query<RecordRow>(
    `SELECT ${recordColumns} FROM contestations c
      WHERE c.transfer_id = $1 AND (c.state IN ('open', 'submitted') OR c.next_check_at IS NOT NULL)
      ORDER BY c.created_at`,
    [transferId],
  );
  return rows.map(recordOf);
}

export async function contestationRecord(db: Queryable, id: string): Promise<ContestationRecord | null> {
  const { rows } = await db.query<RecordRow>(`SELECT ${recordColumns} FROM contestations c WHERE c.id = $1`, [id]);
  return rows[0] === undefined ? null : recordOf(rows[0]);
}

export function isWaiting(record: ContestationRecord): boolean {
  return isActive(record.state) || record.nextCheckAtMs !== null;
}
