CREATE TABLE "transfer_event_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"http_status" integer,
	"duration_ms" integer NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "transfer_events" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"type" text NOT NULL,
	"history_id" bigint,
	"occurred_at" timestamp with time zone NOT NULL,
	"data" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"parked_at" timestamp with time zone,
	CONSTRAINT "transfer_events_sequence_per_transfer" UNIQUE("transfer_id","sequence"),
	CONSTRAINT "transfer_events_one_per_history_row" UNIQUE("history_id"),
	CONSTRAINT "transfer_events_id_prefixed" CHECK ("transfer_events"."id" LIKE 'evt\_%'),
	CONSTRAINT "transfer_events_sequence_positive" CHECK ("transfer_events"."sequence" > 0),
	CONSTRAINT "transfer_events_type_known" CHECK ("transfer_events"."type" IN ('transfer.updated', 'transfer.returned')),
	CONSTRAINT "transfer_events_updated_has_history" CHECK (("transfer_events"."type" = 'transfer.updated') = ("transfer_events"."history_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "transfer_event_attempts" ADD CONSTRAINT "transfer_event_attempts_event_id_transfer_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."transfer_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_events" ADD CONSTRAINT "transfer_events_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_events" ADD CONSTRAINT "transfer_events_history_id_transfer_history_id_fk" FOREIGN KEY ("history_id") REFERENCES "public"."transfer_history"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transfer_event_attempts_by_event" ON "transfer_event_attempts" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "transfer_events_undelivered" ON "transfer_events" USING btree ("next_attempt_at") WHERE "transfer_events"."delivered_at" IS NULL AND "transfer_events"."parked_at" IS NULL;