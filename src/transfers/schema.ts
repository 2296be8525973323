// The saga record: the system of record for every transfer, so support and the sweeper can
// query it. Written only by the SQL functions in drizzle/functions/.
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { at, cents, outboxEvent } from "../db/columns.ts";
import { sqlStringList } from "../db/sql-list.ts";
import { accountRef, ledgerTransactions } from "../ledger/schema.ts";
import { pixKeyTypes } from "../lib/ids.ts";
import { occurrenceCountMax, occurrenceCountMin, recurrenceFrequencies, recurrenceStates } from "../saga/recurrence.ts";
import { returnReasons } from "../saga/returns.ts";
import { failureReasons, inFlightStates, transferStates } from "../saga/states.ts";

/**
 * A recurring scheduled Pix (CONTRACT §2, "Recurring transfers"): what each occurrence pays and
 * when. Its occurrences are ordinary scheduled transfers pointing at it; at most one of them
 * waits at a time (the next is opened when the one before it runs). Written only by the SQL
 * functions in drizzle/functions/ (recurring_transfer_*).
 */
export const recurringTransfers = pgTable(
  "recurring_transfers",
  {
    id: uuid("id").primaryKey(),
    accountId: accountRef(),
    amountCents: cents("amount_cents").notNull(),
    pixKey: text("pix_key").notNull(),
    pixKeyType: text("pix_key_type").notNull(),
    description: text("description"),
    frequency: text("frequency").notNull(),
    /** The first occurrence's São Paulo day, and the anchor every later date is counted from. */
    firstDate: date("first_date", { mode: "string" }).notNull(),
    occurrenceCount: integer("occurrence_count").notNull(),
    state: text("state").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    requestFingerprint: text("request_fingerprint").notNull(),
    /** The first response, replayed verbatim for a repeated Idempotency-Key. */
    firstResponse: jsonb("first_response"),
    /**
     * The device of the request that created it (DEVICE_RULES on, else null): every occurrence
     * and evening retry carries it, so the new-device cap judges each run as a one-off schedule's.
     */
    deviceId: text("device_id"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [
    unique("recurring_transfers_idempotency_key_per_account").on(t.accountId, t.idempotencyKey),
    check("recurring_transfers_amount_positive", sql`${t.amountCents} > 0`),
    check(
      "recurring_transfers_count_bounded",
      sql`${t.occurrenceCount} BETWEEN ${sql.raw(String(occurrenceCountMin))} AND ${sql.raw(String(occurrenceCountMax))}`,
    ),
    check("recurring_transfers_frequency_known", sql`${t.frequency} IN (${sql.raw(sqlStringList(recurrenceFrequencies))})`),
    check("recurring_transfers_state_known", sql`${t.state} IN (${sql.raw(sqlStringList(recurrenceStates))})`),
    check("recurring_transfers_pix_key_type_known", sql`${t.pixKeyType} IN (${sql.raw(sqlStringList(pixKeyTypes))})`),
    check("recurring_transfers_description_bounded", sql`char_length(${t.description}) <= 140`),
    check("recurring_transfers_device_id_printable", sql`${t.deviceId} ~ '^[\\x20-\\x7e]{1,128}$'`),
    index("recurring_transfers_by_account_newest").on(t.accountId, t.createdAt.desc(), t.id.desc()),
  ],
);

export const transfers = pgTable(
  "transfers",
  {
    id: uuid("id").primaryKey(),
    accountId: accountRef(),
    amountCents: cents("amount_cents").notNull(),
    pixKey: text("pix_key").notNull(),
    pixKeyType: text("pix_key_type").notNull(),
    description: text("description"),
    state: text("state").notNull(),
    failureReason: text("failure_reason"),
    failureCode: text("failure_code"),
    endToEndId: text("end_to_end_id"),
    idempotencyKey: text("idempotency_key").notNull(),
    requestFingerprint: text("request_fingerprint").notNull(),
    sendAttempts: integer("send_attempts").notNull().default(0),
    checksMade: integer("checks_made").notNull().default(0),
    lastSentAt: at("last_sent_at"),
    nextCheckAt: at("next_check_at"),
    deadlineAt: at("deadline_at").notNull(),
    /** The São Paulo day whose daily limit this transfer consumed; null when it consumed none. */
    limitDay: date("limit_day", { mode: "string" }),
    /** The client token's device (DEVICE_RULES on); null when the rules were off at the request. */
    deviceId: text("device_id"),
    /**
     * Whether that device was registered when the hold was decided; false: its amount counts
     * toward the day's new-device cap (given back on compensation). Null: no device rule ran.
     */
    deviceRegistered: boolean("device_registered"),
    /**
     * The evening of the night window whose total this transfer consumed (limit_usage `night`),
     * so its compensation gives the amount back to that night; null when it consumed none.
     */
    nightEvening: date("night_evening", { mode: "string" }),
    /** The São Paulo day a scheduled transfer runs on (CONTRACT §2 `scheduled_for`); null: at once. */
    scheduledFor: date("scheduled_for", { mode: "string" }),
    /**
     * When a scheduled transfer's run started it (the velocity rule counts it from then, not from
     * its request); null until it runs, and for a transfer sent at once (created_at is that moment).
     */
    ranAt: at("ran_at"),
    /** Runs of a scheduled transfer that found too little available (one evening retry). */
    shortRuns: integer("short_runs").notNull().default(0),
    /** The sum of its returns (transfer_returns), kept on the row so a CHECK bounds it. */
    returnedCents: cents("returned_cents").notNull().default(0),
    /** The Pix Copia e Cola the client pasted, as given (trimmed); null for a transfer to a key. */
    brCode: text("br_code"),
    /** static: paid to its key; dynamic: paid as the code, through the provider that resolved it. */
    brCodeKind: text("br_code_kind"),
    /** A static code's merchant (fields 59 and 60); a dynamic code's is the provider's, not kept. */
    merchantName: text("merchant_name"),
    merchantCity: text("merchant_city"),
    /** The recurrence this transfer is an occurrence (or an occurrence's retry) of; null for every other transfer. */
    recurringTransferId: uuid("recurring_transfer_id").references(() => recurringTransfers.id),
    /** Which occurrence of its recurrence, from 1; its retry carries the same number. */
    occurrence: integer("occurrence"),
    /** The occurrence whose insufficient funds this transfer retries in the evening; null otherwise. */
    retryOf: uuid("retry_of").references((): AnyPgColumn => transfers.id),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [
    unique("transfers_idempotency_key_per_account").on(t.accountId, t.idempotencyKey),
    check(
      "transfers_occurrence_of_recurrence",
      sql`(${t.recurringTransferId} IS NULL) = (${t.occurrence} IS NULL) AND ${t.occurrence} >= 1`,
    ),
    check("transfers_retry_of_occurrence", sql`${t.retryOf} IS NULL OR ${t.recurringTransferId} IS NOT NULL`),
    // Each occurrence runs once on its date, plus at most one retry (the chaos invariant's floor).
    uniqueIndex("transfers_one_per_occurrence")
      .on(t.recurringTransferId, t.occurrence)
      .where(sql`${t.recurringTransferId} IS NOT NULL AND ${t.retryOf} IS NULL`),
    uniqueIndex("transfers_one_retry_per_occurrence").on(t.retryOf).where(sql`${t.retryOf} IS NOT NULL`),
    // MAX_PENDING_SCHEDULED counts an account's waiting schedules under its row lock.
    index("transfers_scheduled_by_account").on(t.accountId).where(sql`${t.state} = 'scheduled'`),
    check("transfers_amount_positive", sql`${t.amountCents} > 0`),
    // Money that comes back can never exceed what was sent (transfer_return_apply checks it
    // first under the row's lock; this refuses any writer that does not).
    check("transfers_returned_within_amount", sql`${t.returnedCents} >= 0 AND ${t.returnedCents} <= ${t.amountCents}`),
    check("transfers_state_known", sql`${t.state} IN (${sql.raw(sqlStringList(transferStates))})`),
    check("transfers_pix_key_type_known", sql`${t.pixKeyType} IN (${sql.raw(sqlStringList(pixKeyTypes))})`),
    check("transfers_description_bounded", sql`char_length(${t.description}) <= 140`),
    check("transfers_device_id_printable", sql`${t.deviceId} ~ '^[\\x20-\\x7e]{1,128}$'`),
    // The bounds of src/pix/br-code-model.ts: a code of at most 512, a name of 25, a city of 15.
    check("transfers_br_code_bounded", sql`char_length(${t.brCode}) BETWEEN 1 AND 512`),
    check(
      "transfers_br_code_kind_known",
      sql`(${t.brCode} IS NULL) = (${t.brCodeKind} IS NULL) AND ${t.brCodeKind} IN ('static', 'dynamic')`,
    ),
    check(
      "transfers_merchant_bounded",
      sql`char_length(${t.merchantName}) BETWEEN 1 AND 25 AND char_length(${t.merchantCity}) BETWEEN 1 AND 15`,
    ),
    check(
      "transfers_merchant_of_static_code",
      sql`(${t.merchantName} IS NOT NULL) = (${t.brCodeKind} IS NOT DISTINCT FROM 'static') AND (${t.merchantCity} IS NOT NULL) = (${t.brCodeKind} IS NOT DISTINCT FROM 'static')`,
    ),
    check(
      "transfers_failure_reason_known",
      sql`${t.failureReason} IS NULL OR ${t.failureReason} IN (${sql.raw(sqlStringList(failureReasons))})`,
    ),
    check("transfers_failed_iff_compensated", sql`(${t.failureReason} IS NOT NULL) = (${t.state} IN ('compensating', 'compensated'))`),
    index("transfers_by_account_newest").on(t.accountId, t.createdAt.desc(), t.id.desc()),
    index("transfers_due")
      .on(t.nextCheckAt)
      .where(sql`${t.state} IN (${sql.raw(sqlStringList(inFlightStates))})`),
    index("transfers_by_state").on(t.state, t.createdAt),
    // Only scheduled transfers that ran have a row: a transfer sent at once pays no index write.
    index("transfers_scheduled_runs").on(t.accountId, t.ranAt).where(sql`${t.ranAt} IS NOT NULL`),
    index("transfers_by_end_to_end_id").on(t.endToEndId),
    // A device's last use (GET /v1/devices) is its newest transfer: derived, never written per
    // transfer. Partial, so with DEVICE_RULES off no transfer adds an entry.
    index("transfers_by_device_newest").on(t.accountId, t.deviceId, t.createdAt.desc()).where(sql`${t.deviceId} IS NOT NULL`),
  ],
);

/** A row's transfer, which must exist. */
export const transferRef = () =>
  uuid("transfer_id")
    .notNull()
    .references(() => transfers.id);

/** The key of a table with at most one row per transfer: the transfer's own id. */
export const transferKey = () =>
  uuid("transfer_id")
    .primaryKey()
    .references(() => transfers.id);

/**
 * Every transition, in order, with what justified it; each row is also the hop's
 * `transfer.updated` event (CONTRACT §6: the history is the outbox, one row per fact). Append-only
 * but for the event's delivery columns.
 */
export const transferHistory = pgTable(
  "transfer_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    transferId: transferRef(),
    fromState: text("from_state"),
    toState: text("to_state").notNull(),
    /** When the hop happened: also its event's occurred_at. */
    at: at("at").notNull().defaultNow(),
    reason: text("reason"),
    actor: text("actor").notNull(),
    evidence: jsonb("evidence"),
    ...outboxEvent(),
    // The provider call that justified this hop, when one did (a send, a status check), kept
    // with the hop it explains instead of on a row of its own; the view `provider_calls` reads
    // these with provider_calls_apart. Its time is the hop's (`at`: one transaction).
    callKind: text("call_kind"),
    callOutcome: text("call_outcome"),
    callHttpStatus: integer("call_http_status"),
    callDetail: jsonb("call_detail"),
    callDurationMs: integer("call_duration_ms"),
  },
  (t) => [
    // A transfer's hops and other events share one sequence; this also finds a transfer's history.
    unique("transfer_history_sequence_per_transfer").on(t.transferId, t.sequence),
    unique("transfer_history_event_id").on(t.eventId),
    // `client`: the owner's own cancel of a scheduled transfer.
    check("transfer_history_actor_known", sql`${t.actor} IN ('saga', 'provider', 'operator', 'client')`),
    check("transfer_history_event_id_prefixed", sql`${t.eventId} LIKE 'evt\\_%'`),
    check("transfer_history_sequence_positive", sql`${t.sequence} > 0`),
    // The delivery backlog: pending and parked events only, never the delivered outbox.
    index("transfer_history_undelivered").on(t.nextAttemptAt).where(sql`${t.deliveredAt} IS NULL AND ${t.parkedAt} IS NULL`),
    index("transfer_history_parked").on(t.parkedAt).where(sql`${t.deliveredAt} IS NULL AND ${t.parkedAt} IS NOT NULL`),
    check("transfer_history_call_kind_known", sql`${t.callKind} IN ('send', 'status')`),
    check(
      "transfer_history_call_whole",
      sql`(${t.callKind} IS NULL) = (${t.callOutcome} IS NULL) AND (${t.callKind} IS NULL) = (${t.callDurationMs} IS NULL)`,
    ),
    // Provider reconciliation and GET /ops/overview read calls by kind and time (as provider_calls_by_kind_time).
    index("transfer_history_calls_by_kind_time").on(t.callKind, t.at).where(sql`${t.callKind} IS NOT NULL`),
  ],
);

/**
 * A provider call kept on a row of its own: one that explains no hop (a status check that found
 * the payment still processing, an unknown answer, a step that lost its race), and every call
 * recorded before migration 0014. A call that justified a hop is on that hop's history row. Ids
 * come from the history's sequence, so the view `provider_calls` (both kinds of row) orders
 * every call of a transfer by id, as they were made.
 */
export const providerCallsApart = pgTable(
  "provider_calls_apart",
  {
    id: bigint("id", { mode: "number" }).primaryKey().default(sql`nextval('transfer_history_id_seq')`),
    transferId: transferRef(),
    kind: text("kind").notNull(),
    at: at("at").notNull().defaultNow(),
    outcome: text("outcome").notNull(),
    httpStatus: integer("http_status"),
    detail: jsonb("detail"),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [
    index("provider_calls_apart_by_transfer").on(t.transferId, t.id),
    index("provider_calls_apart_by_kind_time").on(t.kind, t.at),
    check("provider_calls_apart_kind_known", sql`${t.kind} IN ('send', 'status')`),
  ],
);

/**
 * Money that came back after a completed Pix (devolução, MED), one row per return the provider
 * reported, keyed by the provider's return id: credited once, through the ledger transaction
 * it names (transfer_return_apply is the only writer).
 */
export const transferReturns = pgTable(
  "transfer_returns",
  {
    id: text("id").primaryKey(),
    transferId: transferRef(),
    amountCents: cents("amount_cents").notNull(),
    reason: text("reason").notNull(),
    /** When the provider says the money came back. */
    returnedAt: at("returned_at").notNull(),
    ledgerTransactionId: bigint("ledger_transaction_id", { mode: "number" })
      .notNull()
      .unique()
      .references(() => ledgerTransactions.id),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("transfer_returns_amount_positive", sql`${t.amountCents} > 0`),
    check("transfer_returns_id_bounded", sql`char_length(${t.id}) BETWEEN 1 AND 100`),
    check("transfer_returns_reason_known", sql`${t.reason} IN (${sql.raw(sqlStringList(returnReasons))})`),
    index("transfer_returns_by_transfer").on(t.transferId, t.returnedAt),
  ],
);
