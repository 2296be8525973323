// The outbox (CONTRACT §6): one row per change of a transfer, written by the database in the
// same statement as the change. A hop's event is its own history row (transfer_history); the
// other changes' events live here; the view `transfer_events` (drizzle/0013) reads both, in one
// sequence per transfer. Delivery columns are the only ones that ever change (triggers refuse
// the rest), and every delivery attempt is kept.
import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, pgTable, primaryKey, text, unique } from "drizzle-orm/pg-core";
import { at, outboxEvent } from "../db/columns.ts";
import { transferRef } from "../transfers/schema.ts";

/**
 * The events of a transfer that are not a hop of its state: a return (`transfer.returned`), a
 * contestation's change (`contestation.updated`). They take their places in the transfer's one
 * sequence beside its history rows, which are their own events; the view `transfer_events` reads
 * both as one outbox.
 */
export const transferOtherEvents = pgTable(
  "transfer_other_events",
  {
    ...outboxEvent(),
    transferId: transferRef(),
    type: text("type").notNull(),
    occurredAt: at("occurred_at").notNull(),
  },
  (t) => [
    primaryKey({ name: "transfer_other_events_pkey", columns: [t.eventId] }),
    unique("transfer_other_events_sequence_per_transfer").on(t.transferId, t.sequence),
    check("transfer_other_events_event_id_prefixed", sql`${t.eventId} LIKE 'evt\\_%'`),
    check("transfer_other_events_sequence_positive", sql`${t.sequence} > 0`),
    check("transfer_other_events_type_known", sql`${t.type} IN ('transfer.returned', 'contestation.updated')`),
    index("transfer_other_events_undelivered").on(t.nextAttemptAt).where(sql`${t.deliveredAt} IS NULL AND ${t.parkedAt} IS NULL`),
    index("transfer_other_events_parked").on(t.parkedAt).where(sql`${t.deliveredAt} IS NULL AND ${t.parkedAt} IS NOT NULL`),
  ],
);

/** Every delivery attempt: what the receiver answered, how long it took, or why it failed. */
export const transferEventAttempts = pgTable(
  "transfer_event_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The event's id, in transfer_history or transfer_other_events (the view transfer_events reads both). */
    eventId: text("event_id").notNull(),
    at: at("at").notNull().defaultNow(),
    httpStatus: integer("http_status"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
  },
  (t) => [index("transfer_event_attempts_by_event").on(t.eventId, t.id)],
);
