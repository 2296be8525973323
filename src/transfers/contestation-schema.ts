// Contestations (CONTRACT §2 "Contestations", MED 2.0): a customer's claim that a completed Pix
// was a fraud, a scam or coerced. Written only by the SQL functions contestation_open and
// contestation_apply, under the transfer's row lock, with their contestation.updated event.
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { at } from "../db/columns.ts";
import { sqlStringList } from "../db/sql-list.ts";
import { accountRef } from "../ledger/schema.ts";
import { activeContestationStates, contestationReasons, contestationStates, detailsLengthMax } from "../saga/contestations.ts";
import { transferRef } from "./schema.ts";

const active = sql.raw(sqlStringList(activeContestationStates));

export const contestations = pgTable(
  "contestations",
  {
    id: uuid("id").primaryKey(),
    transferId: transferRef(),
    accountId: accountRef(),
    idempotencyKey: text("idempotency_key").notNull(),
    requestFingerprint: text("request_fingerprint").notNull(),
    /** The first response, replayed verbatim for a repeated Idempotency-Key. */
    firstResponse: jsonb("first_response").notNull(),
    state: text("state").notNull(),
    reason: text("reason").notNull(),
    details: text("details").notNull(),
    /** The provider's reference, once it took the contestation (or an operator recorded Efí's). */
    pspRef: text("psp_ref"),
    /** Business time (the test clock's, with the sandbox on): the 11-day deadline counts from it. */
    createdAt: at("created_at").notNull(),
    submittedAt: at("submitted_at"),
    decidedAt: at("decided_at"),
    deadlineAt: at("deadline_at").notNull(),
    /**
     * The transfer's `fraud` returns when it was made, under the transfer's lock: returned_cents
     * is their sum now minus this, so it follows the returns and cannot drift from them.
     */
    fraudCentsBefore: bigint("fraud_cents_before", { mode: "number" }).notNull(),
    /** When its object next asks the provider (wall clock); null: nothing to ask. The sweeper finds it overdue. */
    nextCheckAt: at("next_check_at"),
    checksMade: integer("checks_made").notNull().default(0),
    /** After a refunding decision: the transfer's returns are read until then (wall clock). */
    refundWatchUntil: at("refund_watch_until"),
    /** When the past-deadline alert was raised (business time): at most once per contestation. */
    deadlineAlertedAt: at("deadline_alerted_at"),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [
    unique("contestations_idempotency_key_per_account").on(t.accountId, t.idempotencyKey),
    // One contestation that is not final per transfer, whoever writes.
    uniqueIndex("contestations_one_active_per_transfer").on(t.transferId).where(sql`${t.state} IN (${active})`),
    index("contestations_by_transfer").on(t.transferId, t.createdAt),
    // The operators' queue and the overview: the active ones by deadline.
    index("contestations_active_by_deadline").on(t.deadlineAt).where(sql`${t.state} IN (${active})`),
    index("contestations_due").on(t.nextCheckAt).where(sql`${t.nextCheckAt} IS NOT NULL`),
    check("contestations_state_known", sql`${t.state} IN (${sql.raw(sqlStringList(contestationStates))})`),
    check("contestations_reason_known", sql`${t.reason} IN (${sql.raw(sqlStringList(contestationReasons))})`),
    check("contestations_details_bounded", sql`char_length(${t.details}) BETWEEN 1 AND ${sql.raw(String(detailsLengthMax))}`),
    check("contestations_psp_ref_bounded", sql`char_length(${t.pspRef}) BETWEEN 1 AND 200`),
    check("contestations_submitted_has_ref", sql`${t.state} IN ('open', 'canceled') OR ${t.pspRef} IS NOT NULL`),
    check("contestations_fraud_before_not_negative", sql`${t.fraudCentsBefore} >= 0`),
  ],
);
