-- transfer_events, whose rows moved in 0012, becomes a view of the one outbox: each history
-- row as its transfer.updated event, and transfer_other_events. Every reader of the outbox
-- (delivery, the stream, /ops/events, the overview) reads it unchanged. A transfer's first
-- response is no longer a copy on its row: it is the event of the last hop its opening
-- transaction recorded (transfer_open_response.sql).
-- Hand-edited: the attempts' key to the table goes before the table (DROP ... CASCADE would
-- take it first, and the generated DROP CONSTRAINT would then fail).
ALTER TABLE "transfer_event_attempts" DROP CONSTRAINT "transfer_event_attempts_event_id_transfer_events_id_fk";--> statement-breakpoint
DROP TABLE "transfer_events" CASCADE;--> statement-breakpoint
ALTER TABLE "transfers" DROP COLUMN "first_response";--> statement-breakpoint
-- Hand-written: the view, and its one trigger: a bare writer of the outbox meets the same rules
-- as before (an event only with its change, only delivery columns change, nothing deleted).
CREATE VIEW "transfer_events" AS
  SELECT h."event_id" AS "id", h."transfer_id", h."sequence", 'transfer.updated'::text AS "type", h."id" AS "history_id",
         h."at" AS "occurred_at", h."data", h."attempts", h."next_attempt_at", h."delivered_at", h."parked_at"
    FROM "transfer_history" h
  UNION ALL
  SELECT o."event_id", o."transfer_id", o."sequence", o."type", NULL::bigint, o."occurred_at", o."data", o."attempts",
         o."next_attempt_at", o."delivered_at", o."parked_at"
    FROM "transfer_other_events" o;--> statement-breakpoint
CREATE TRIGGER "transfer_events_write" INSTEAD OF INSERT OR UPDATE OR DELETE ON "transfer_events"
  FOR EACH ROW EXECUTE FUNCTION transfer_events_view_write();