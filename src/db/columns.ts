// Column shapes every table declares alike, so a table reads as its names: money as integer
// centavos read into a JS number (every amount is far below 2^53), times with their zone.
import { sql } from "drizzle-orm";
import { bigint, integer, jsonb, text, timestamp } from "drizzle-orm/pg-core";

export const cents = (name: string) => bigint(name, { mode: "number" });
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * An outbox event's own columns (CONTRACT §6), alike on the two tables that hold events: the
 * transfer's history (a hop is its own event) and transfer_other_events (returns, contestations).
 * The database sets `sequence`, `data` and `next_attempt_at` as the row is written; only the
 * delivery columns ever change afterwards.
 */
export const outboxEvent = () => ({
  /** `evt_` and a random id: the `webhook-id` of every delivery attempt. */
  eventId: text("event_id").notNull().default(sql`'evt_' || replace(gen_random_uuid()::text, '-', '')`),
  /** 1, 2, 3... per transfer across both tables, with no gap: the delivery order and the stream's Last-Event-ID. */
  sequence: integer("sequence").notNull(),
  /** The client resource as of the change (transfer_json), built once, when the row is written. */
  data: jsonb("data").notNull(),
  attempts: integer("attempts").notNull().default(0),
  /** When delivery is next due; null once delivered or parked. */
  nextAttemptAt: at("next_attempt_at"),
  deliveredAt: at("delivered_at"),
  parkedAt: at("parked_at"),
});
