CREATE TABLE "contestations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"transfer_id" uuid NOT NULL,
	"account_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_fingerprint" text NOT NULL,
	"first_response" jsonb NOT NULL,
	"state" text NOT NULL,
	"reason" text NOT NULL,
	"details" text NOT NULL,
	"psp_ref" text,
	"created_at" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"deadline_at" timestamp with time zone NOT NULL,
	"fraud_cents_before" bigint NOT NULL,
	"next_check_at" timestamp with time zone,
	"checks_made" integer DEFAULT 0 NOT NULL,
	"refund_watch_until" timestamp with time zone,
	"deadline_alerted_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contestations_idempotency_key_per_account" UNIQUE("account_id","idempotency_key"),
	CONSTRAINT "contestations_state_known" CHECK ("contestations"."state" IN ('open', 'submitted', 'accepted', 'partially_accepted', 'rejected', 'canceled')),
	CONSTRAINT "contestations_reason_known" CHECK ("contestations"."reason" IN ('fraud', 'scam', 'coercion')),
	CONSTRAINT "contestations_details_bounded" CHECK (char_length("contestations"."details") BETWEEN 1 AND 2000),
	CONSTRAINT "contestations_psp_ref_bounded" CHECK (char_length("contestations"."psp_ref") BETWEEN 1 AND 200),
	CONSTRAINT "contestations_submitted_has_ref" CHECK ("contestations"."state" IN ('open', 'canceled') OR "contestations"."psp_ref" IS NOT NULL),
	CONSTRAINT "contestations_fraud_before_not_negative" CHECK ("contestations"."fraud_cents_before" >= 0)
);
--> statement-breakpoint
CREATE TABLE "test_clock_advances" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"advanced_at" timestamp with time zone NOT NULL,
	"offset_ms" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operator_actions" DROP CONSTRAINT "operator_actions_action_known";--> statement-breakpoint
ALTER TABLE "transfer_events" DROP CONSTRAINT "transfer_events_type_known";--> statement-breakpoint
ALTER TABLE "contestations" ADD CONSTRAINT "contestations_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contestations" ADD CONSTRAINT "contestations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contestations_one_active_per_transfer" ON "contestations" USING btree ("transfer_id") WHERE "contestations"."state" IN ('open', 'submitted');--> statement-breakpoint
CREATE INDEX "contestations_by_transfer" ON "contestations" USING btree ("transfer_id","created_at");--> statement-breakpoint
CREATE INDEX "contestations_active_by_deadline" ON "contestations" USING btree ("deadline_at") WHERE "contestations"."state" IN ('open', 'submitted');--> statement-breakpoint
CREATE INDEX "contestations_due" ON "contestations" USING btree ("next_check_at") WHERE "contestations"."next_check_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "test_clock_advances_by_time" ON "test_clock_advances" USING btree ("advanced_at");--> statement-breakpoint
ALTER TABLE "operator_actions" ADD CONSTRAINT "operator_actions_action_known" CHECK ("operator_actions"."action" IN ('account_created', 'credit', 'credit_requested', 'credit_approved', 'limits_changed', 'transfer_resolved', 'reconciliation_run', 'contestation_submitted', 'contestation_decided'));--> statement-breakpoint
ALTER TABLE "transfer_events" ADD CONSTRAINT "transfer_events_type_known" CHECK ("transfer_events"."type" IN ('transfer.updated', 'transfer.returned', 'contestation.updated'));--> statement-breakpoint
-- Hand-written tail: every advance of the test clock is logged with the offset it left
-- (drizzle/functions/test_clock_log_advance.sql), so the business time of a past moment is
-- known (test_clock_business_at); the offset already there is logged as of its last advance.
CREATE TRIGGER test_clock_advances_logged AFTER INSERT OR UPDATE ON test_clock
  FOR EACH ROW EXECUTE FUNCTION test_clock_log_advance();--> statement-breakpoint
INSERT INTO test_clock_advances (advanced_at, offset_ms) SELECT advanced_at, offset_ms FROM test_clock;
