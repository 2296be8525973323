// The outbox (CONTRACT §6): one row per change of a transfer, written by the database in the
// same statement as the change's history row, and its delivery attempts. Delivery columns are
// the only ones that ever change (a trigger refuses the rest).
import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, integer, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import { at } from "../db/columns.ts";
import { transferHistory, transferRef } from "../transfers/schema.ts";

export const transferEvents = pgTable(
  "transfer_events",
  {
    /** `evt_` and a random id: the `webhook-id` of every delivery attempt. */
    id: text("id").primaryKey(),
    transferId: transferRef(),
    /** 1, 2, 3... per transfer, with no gap: the delivery order and the stream's Last-Event-ID. */
    sequence: integer("sequence").notNull(),
    type: text("type").notNull(),
    /** The history row this event announces (transfer.updated); the change it cannot exist without. */
    historyId: bigint("history_id", { mode: "number" }).references(() => transferHistory.id),
    occurredAt: at("occurred_at").notNull(),
    /** The client resource as of the change (transfer_json, as of that history row). */
    data: jsonb("data").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** When delivery is next due; null once delivered or parked. */
    nextAttemptAt: at("next_attempt_at"),
    deliveredAt: at("delivered_at"),
    parkedAt: at("parked_at"),
  },
  (t) => [
    unique("transfer_events_sequence_per_transfer").on(t.transferId, t.sequence),
    unique("transfer_events_one_per_history_row").on(t.historyId),
    check("transfer_events_id_prefixed", sql`${t.id} LIKE 'evt\\_%'`),
    check("transfer_events_sequence_positive", sql`${t.sequence} > 0`),
    check("transfer_events_type_known", sql`${t.type} IN ('transfer.updated', 'transfer.returned', 'contestation.updated')`),
    check("transfer_events_updated_has_history", sql`(${t.type} = 'transfer.updated') = (${t.historyId} IS NOT NULL)`),
    index("transfer_events_undelivered").on(t.nextAttemptAt).where(sql`${t.deliveredAt} IS NULL AND ${t.parkedAt} IS NULL`),
    // GET /ops/overview counts the parked events beside the pending ones. Parking is rare and
    // delivery already updates an indexed predicate column, so this costs a delivery nothing.
    index("transfer_events_parked").on(t.parkedAt).where(sql`${t.deliveredAt} IS NULL AND ${t.parkedAt} IS NOT NULL`),
  ],
);

/** Every delivery attempt: what the receiver answered, how long it took, or why it failed. */
export const transferEventAttempts = pgTable(
  "transfer_event_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => transferEvents.id),
    at: at("at").notNull().defaultNow(),
    httpStatus: integer("http_status"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
  },
  (t) => [index("transfer_event_attempts_by_event").on(t.eventId, t.id)],
);
