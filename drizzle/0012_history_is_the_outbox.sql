-- The history is the outbox (issue 30): a hop's transfer_history row is also its
-- transfer.updated event (sequence, the resource as of the hop, delivery state), so a hop writes
-- one row, not two; a transfer's other events (returns, contestations) are rows of
-- transfer_other_events in the same per-transfer sequence. Existing events move onto their
-- history rows (the others into transfer_other_events), delivery state and ids kept; 0013 drops
-- transfer_events and puts a view of both tables in its place.
-- Hand-edited where drizzle-kit cannot know the data: the history's old triggers go before the
-- backfill, and `sequence` and `data` are added nullable, backfilled, then made NOT NULL.
DROP TRIGGER "transfer_history_event" ON "transfer_history";--> statement-breakpoint
DROP TRIGGER "transfer_history_no_update_or_delete" ON "transfer_history";--> statement-breakpoint
CREATE TABLE "transfer_other_events" (
	"event_id" text DEFAULT 'evt_' || replace(gen_random_uuid()::text, '-', '') NOT NULL,
	"sequence" integer NOT NULL,
	"data" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"parked_at" timestamp with time zone,
	"transfer_id" uuid NOT NULL,
	"type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "transfer_other_events_pkey" PRIMARY KEY("event_id"),
	CONSTRAINT "transfer_other_events_sequence_per_transfer" UNIQUE("transfer_id","sequence"),
	CONSTRAINT "transfer_other_events_event_id_prefixed" CHECK ("transfer_other_events"."event_id" LIKE 'evt\_%'),
	CONSTRAINT "transfer_other_events_sequence_positive" CHECK ("transfer_other_events"."sequence" > 0),
	CONSTRAINT "transfer_other_events_type_known" CHECK ("transfer_other_events"."type" IN ('transfer.returned', 'contestation.updated'))
);
--> statement-breakpoint
DROP INDEX "transfer_history_by_transfer";--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "event_id" text DEFAULT 'evt_' || replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "sequence" integer;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "data" jsonb;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "parked_at" timestamp with time zone;--> statement-breakpoint
UPDATE "transfer_history" h SET "event_id" = e."id", "sequence" = e."sequence", "data" = e."data", "attempts" = e."attempts",
    "next_attempt_at" = e."next_attempt_at", "delivered_at" = e."delivered_at", "parked_at" = e."parked_at"
  FROM "transfer_events" e WHERE e."history_id" = h."id";--> statement-breakpoint
INSERT INTO "transfer_other_events" ("event_id", "sequence", "data", "attempts", "next_attempt_at", "delivered_at", "parked_at",
                                     "transfer_id", "type", "occurred_at")
  SELECT "id", "sequence", "data", "attempts", "next_attempt_at", "delivered_at", "parked_at", "transfer_id", "type", "occurred_at"
    FROM "transfer_events" WHERE "history_id" IS NULL;--> statement-breakpoint
ALTER TABLE "transfer_history" ALTER COLUMN "sequence" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_history" ALTER COLUMN "data" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_other_events" ADD CONSTRAINT "transfer_other_events_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transfer_other_events_undelivered" ON "transfer_other_events" USING btree ("next_attempt_at") WHERE "transfer_other_events"."delivered_at" IS NULL AND "transfer_other_events"."parked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "transfer_other_events_parked" ON "transfer_other_events" USING btree ("parked_at") WHERE "transfer_other_events"."delivered_at" IS NULL AND "transfer_other_events"."parked_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "transfer_history_undelivered" ON "transfer_history" USING btree ("next_attempt_at") WHERE "transfer_history"."delivered_at" IS NULL AND "transfer_history"."parked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "transfer_history_parked" ON "transfer_history" USING btree ("parked_at") WHERE "transfer_history"."delivered_at" IS NULL AND "transfer_history"."parked_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_sequence_per_transfer" UNIQUE("transfer_id","sequence");--> statement-breakpoint
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_event_id" UNIQUE("event_id");--> statement-breakpoint
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_event_id_prefixed" CHECK ("transfer_history"."event_id" LIKE 'evt\_%');--> statement-breakpoint
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_sequence_positive" CHECK ("transfer_history"."sequence" > 0);--> statement-breakpoint
-- Hand-written: the outbox's guarantees on its new rows (CONTRACT §6), held by the database
-- whoever writes. A history row becomes its hop's event as it is inserted (sequence, resource,
-- due now); it never changes but for its delivery columns; the other events likewise; and at
-- COMMIT a transfer has as many transfer.returned events as returns.
CREATE TRIGGER "transfer_history_event" BEFORE INSERT ON "transfer_history"
  FOR EACH ROW EXECUTE FUNCTION transfer_history_as_event();--> statement-breakpoint
CREATE TRIGGER "transfer_history_no_update_or_delete" BEFORE UPDATE OR DELETE ON "transfer_history"
  FOR EACH ROW EXECUTE FUNCTION transfer_history_refuse_change();--> statement-breakpoint
CREATE TRIGGER "transfer_other_events_immutable" BEFORE UPDATE OR DELETE ON "transfer_other_events"
  FOR EACH ROW EXECUTE FUNCTION transfer_events_refuse_change();--> statement-breakpoint
CREATE TRIGGER "transfer_other_events_no_truncate" BEFORE TRUNCATE ON "transfer_other_events"
  FOR EACH STATEMENT EXECUTE FUNCTION transfer_events_refuse_change();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "transfer_other_events_returned_counted" AFTER INSERT ON "transfer_other_events"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.type = 'transfer.returned')
  EXECUTE FUNCTION transfer_check_returns_announced();