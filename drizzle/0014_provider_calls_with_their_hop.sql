-- One row per fact (issue 30): a provider call that justified a hop is kept on that hop's
-- history row (call_*), not on a row of its own; the calls that explain no hop, and every call
-- recorded so far, are rows of provider_calls_apart, whose ids come from the history's sequence
-- so that the view provider_calls (0015) orders a transfer's calls by id as they were made.
CREATE TABLE "provider_calls_apart" (
	"id" bigint PRIMARY KEY DEFAULT nextval('transfer_history_id_seq') NOT NULL,
	"transfer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"http_status" integer,
	"detail" jsonb,
	"duration_ms" integer NOT NULL,
	CONSTRAINT "provider_calls_apart_kind_known" CHECK ("provider_calls_apart"."kind" IN ('send', 'status'))
);
--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "call_kind" text;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "call_outcome" text;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "call_http_status" integer;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "call_detail" jsonb;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD COLUMN "call_duration_ms" integer;--> statement-breakpoint
ALTER TABLE "provider_calls_apart" ADD CONSTRAINT "provider_calls_apart_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provider_calls_apart_by_transfer" ON "provider_calls_apart" USING btree ("transfer_id","id");--> statement-breakpoint
CREATE INDEX "provider_calls_apart_by_kind_time" ON "provider_calls_apart" USING btree ("kind","at");--> statement-breakpoint
CREATE INDEX "transfer_history_calls_by_kind_time" ON "transfer_history" USING btree ("call_kind","at") WHERE "transfer_history"."call_kind" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_call_kind_known" CHECK ("transfer_history"."call_kind" IN ('send', 'status'));--> statement-breakpoint
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_call_whole" CHECK (("transfer_history"."call_kind" IS NULL) = ("transfer_history"."call_outcome" IS NULL) AND ("transfer_history"."call_kind" IS NULL) = ("transfer_history"."call_duration_ms" IS NULL));--> statement-breakpoint
-- Hand-written: the calls recorded so far move as they are (ids kept), and the shared sequence
-- starts past every id either kind of row already has.
INSERT INTO "provider_calls_apart" ("id", "transfer_id", "kind", "at", "outcome", "http_status", "detail", "duration_ms")
  SELECT "id", "transfer_id", "kind", "at", "outcome", "http_status", "detail", "duration_ms" FROM "provider_calls";--> statement-breakpoint
SELECT setval('transfer_history_id_seq', greatest(
  (SELECT max("id") FROM "transfer_history"), (SELECT max("id") FROM "provider_calls_apart"), 1));