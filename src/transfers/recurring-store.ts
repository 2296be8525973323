// Recurring transfers' operations and reads (CONTRACT §2, "Recurring transfers"): each is one SQL
// function call or one query (one round trip). Their occurrences are ordinary transfers; these
// answer which of them a caller must wake (`waiting`, `canceled`), never wake them.
import type { RuleSettings } from "../config/rule-settings.ts";
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";
import type { PixKeyType } from "../lib/ids.ts";
import type { RecurrenceFrequency } from "../saga/recurrence.ts";
import { type OwnedPage, ownedPage, ownedResource } from "./owned-reads.ts";
import type { OccurrenceSlot, RecurringFollowUps } from "./recurring-follow-ups.ts";
import { callJson } from "./store.ts";

/** The client resource exactly as CONTRACT §2 shows it, rendered by recurring_transfer_json(). */
export type RecurringTransferResource = JsonObject & { id: string; state: string };

export interface OpenRecurringInput {
  id: string;
  accountId: string;
  amountCents: number;
  pixKey: string;
  pixKeyType: PixKeyType;
  description: string | null;
  idempotencyKey: string;
  requestFingerprint: string;
  frequency: RecurrenceFrequency;
  firstDate: string;
  count: number;
  rules: RuleSettings;
  deadlineMs: number;
  /** The first occurrence's transfer and its early slot on `firstDate`. */
  first: OccurrenceSlot;
  /** What opens after the first occurrence when the night rules refuse it at this request. */
  followUps: RecurringFollowUps;
  /** The request's business time: the night rules judge a recurrence requested at night by it. */
  localDay: string;
  localMinuteOfDay: number;
  nowMs: number;
  /** The client token's device with DEVICE_RULES on (each occurrence's run is capped by it), else null. */
  deviceId: string | null;
}

export type OpenRecurringResult =
  | { outcome: "created" | "replayed"; recurringTransferId: string; response: RecurringTransferResource; waiting: string[] }
  | { outcome: "key_reused" }
  | { outcome: "account_not_found" }
  | { outcome: "too_many_scheduled" };

const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export async function openRecurringTransfer(db: Queryable, input: OpenRecurringInput): Promise<OpenRecurringResult> {
  // Every field named as recurring_transfer_open reads it, each present (null where it may be).
  const record = {
    id: input.id,
    account_id: input.accountId,
    amount_cents: input.amountCents,
    pix_key: input.pixKey,
    pix_key_type: input.pixKeyType,
    description: input.description,
    idempotency_key: input.idempotencyKey,
    fingerprint: input.requestFingerprint,
    frequency: input.frequency,
    first_date: input.firstDate,
    count: input.count,
    rules: { ...input.rules, now_ms: input.nowMs },
    deadline_ms: input.deadlineMs,
    first: input.first,
    follow_ups: input.followUps,
    local_day: input.localDay,
    local_minute: input.localMinuteOfDay,
    device_id: input.deviceId,
  };
  const r = await callJson(db, "SELECT recurring_transfer_open($1::jsonb) AS result", [JSON.stringify(record)]);
  switch (r.outcome) {
    case "created":
    case "replayed":
      return {
        outcome: r.outcome,
        recurringTransferId: String(r.recurring_transfer_id),
        response: r.response as RecurringTransferResource,
        waiting: idsOf(r.waiting),
      };
    case "key_reused":
    case "account_not_found":
    case "too_many_scheduled":
      return { outcome: r.outcome };
    default:
      throw new Error(`recurring_transfer_open answered an unknown outcome: ${String(r.outcome)}`);
  }
}

export type CancelRecurringResult =
  | { outcome: "canceled"; response: RecurringTransferResource; canceled: string[] }
  | { outcome: "not_active"; state: string }
  | { outcome: "not_found" };

/** The owner's cancel: the recurrence and every transfer of it still waiting, in one transaction. */
export async function cancelRecurringTransfer(db: Queryable, id: string, accountId: string): Promise<CancelRecurringResult> {
  const r = await callJson(db, "SELECT recurring_transfer_cancel($1, $2) AS result", [id, accountId]);
  switch (r.outcome) {
    case "canceled":
      return { outcome: "canceled", response: r.response as RecurringTransferResource, canceled: idsOf(r.canceled) };
    case "not_active":
      return { outcome: "not_active", state: String(r.state) };
    case "not_found":
      return { outcome: "not_found" };
    default:
      throw new Error(`recurring_transfer_cancel answered an unknown outcome: ${String(r.outcome)}`);
  }
}

export type RecurringRead =
  | { outcome: "found"; recurringTransfer: RecurringTransferResource }
  | { outcome: "not_found" }
  | { outcome: "account_not_found" };

/** The caller's recurring transfer; another account's is indistinguishable from none. */
export async function recurringTransferForAccount(db: Queryable, id: string, accountId: string): Promise<RecurringRead> {
  const read = await ownedResource<RecurringTransferResource>(db, "recurring_transfer", id, accountId);
  return read.outcome === "found" ? { outcome: "found", recurringTransfer: read.resource } : read;
}

export type RecurringPage = OwnedPage<RecurringTransferResource>;

/** Newest first, as the transfers' list. */
export function listRecurringTransfersForAccount(
  db: Queryable,
  accountId: string,
  limit: number,
  rawPosition: string | null,
): Promise<RecurringPage> {
  return ownedPage(db, "recurring_transfer", accountId, limit, rawPosition);
}
