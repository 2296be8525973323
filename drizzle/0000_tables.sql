CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text DEFAULT 'customer' NOT NULL,
	"balance_cents" bigint DEFAULT 0 NOT NULL,
	"held_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_kind_known" CHECK ("accounts"."kind" IN ('customer', 'funding', 'clearing')),
	CONSTRAINT "accounts_balance_not_negative" CHECK ("accounts"."balance_cents" >= 0),
	CONSTRAINT "accounts_held_not_negative" CHECK ("accounts"."held_cents" >= 0),
	CONSTRAINT "accounts_available_not_negative" CHECK ("accounts"."held_cents" <= "accounts"."balance_cents"),
	CONSTRAINT "accounts_house_rows_static" CHECK ("accounts"."kind" = 'customer' OR ("accounts"."balance_cents" = 0 AND "accounts"."held_cents" = 0))
);
--> statement-breakpoint
CREATE TABLE "entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL,
	"account_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"balance_after_cents" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "entries_amount_not_zero" CHECK ("entries"."amount_cents" <> 0)
);
--> statement-breakpoint
CREATE TABLE "holds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "holds_amount_positive" CHECK ("holds"."amount_cents" > 0),
	CONSTRAINT "holds_status_known" CHECK ("holds"."status" IN ('held', 'settled', 'released', 'refused')),
	CONSTRAINT "holds_resolved_iff_not_held" CHECK (("holds"."status" = 'held') = ("holds"."resolved_at" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"op_key" text NOT NULL,
	"kind" text NOT NULL,
	"account_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"hold_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_transactions_op_key_unique" UNIQUE("op_key"),
	CONSTRAINT "ledger_transactions_hold_id_unique" UNIQUE("hold_id"),
	CONSTRAINT "ledger_transactions_amount_positive" CHECK ("ledger_transactions"."amount_cents" > 0),
	CONSTRAINT "ledger_transactions_kind_known" CHECK ("ledger_transactions"."kind" IN ('credit', 'settle', 'return')),
	CONSTRAINT "ledger_transactions_settle_has_hold" CHECK (("ledger_transactions"."kind" = 'settle') = ("ledger_transactions"."hold_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "provider_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transfer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"http_status" integer,
	"detail" jsonb,
	"duration_ms" integer NOT NULL,
	CONSTRAINT "provider_calls_kind_known" CHECK ("provider_calls"."kind" IN ('send', 'status'))
);
--> statement-breakpoint
CREATE TABLE "transfer_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transfer_id" uuid NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text,
	"actor" text NOT NULL,
	"evidence" jsonb,
	CONSTRAINT "transfer_history_actor_known" CHECK ("transfer_history"."actor" IN ('saga', 'provider', 'operator', 'client'))
);
--> statement-breakpoint
CREATE TABLE "transfer_returns" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"reason" text NOT NULL,
	"returned_at" timestamp with time zone NOT NULL,
	"ledger_transaction_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfer_returns_ledger_transaction_id_unique" UNIQUE("ledger_transaction_id"),
	CONSTRAINT "transfer_returns_amount_positive" CHECK ("transfer_returns"."amount_cents" > 0),
	CONSTRAINT "transfer_returns_id_bounded" CHECK (char_length("transfer_returns"."id") BETWEEN 1 AND 100),
	CONSTRAINT "transfer_returns_reason_known" CHECK ("transfer_returns"."reason" IN ('returned_by_recipient', 'fraud', 'operational_failure', 'other'))
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"pix_key" text NOT NULL,
	"pix_key_type" text NOT NULL,
	"description" text,
	"state" text NOT NULL,
	"failure_reason" text,
	"failure_code" text,
	"end_to_end_id" text,
	"idempotency_key" text NOT NULL,
	"request_fingerprint" text NOT NULL,
	"first_response" jsonb,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"checks_made" integer DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"deadline_at" timestamp with time zone NOT NULL,
	"limit_day" date,
	"scheduled_for" date,
	"short_runs" integer DEFAULT 0 NOT NULL,
	"returned_cents" bigint DEFAULT 0 NOT NULL,
	"br_code" text,
	"br_code_kind" text,
	"merchant_name" text,
	"merchant_city" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfers_idempotency_key_per_account" UNIQUE("account_id","idempotency_key"),
	CONSTRAINT "transfers_amount_positive" CHECK ("transfers"."amount_cents" > 0),
	CONSTRAINT "transfers_returned_within_amount" CHECK ("transfers"."returned_cents" >= 0 AND "transfers"."returned_cents" <= "transfers"."amount_cents"),
	CONSTRAINT "transfers_state_known" CHECK ("transfers"."state" IN ('scheduled', 'started', 'funds_reserved', 'submitted', 'completed', 'compensating', 'compensated', 'needs_review', 'canceled')),
	CONSTRAINT "transfers_pix_key_type_known" CHECK ("transfers"."pix_key_type" IN ('cpf', 'cnpj', 'email', 'phone', 'evp')),
	CONSTRAINT "transfers_description_bounded" CHECK (char_length("transfers"."description") <= 140),
	CONSTRAINT "transfers_br_code_bounded" CHECK (char_length("transfers"."br_code") BETWEEN 1 AND 512),
	CONSTRAINT "transfers_br_code_kind_known" CHECK (("transfers"."br_code" IS NULL) = ("transfers"."br_code_kind" IS NULL) AND "transfers"."br_code_kind" IN ('static', 'dynamic')),
	CONSTRAINT "transfers_merchant_bounded" CHECK (char_length("transfers"."merchant_name") BETWEEN 1 AND 25 AND char_length("transfers"."merchant_city") BETWEEN 1 AND 15),
	CONSTRAINT "transfers_merchant_of_static_code" CHECK (("transfers"."merchant_name" IS NOT NULL) = ("transfers"."br_code_kind" IS NOT DISTINCT FROM 'static') AND ("transfers"."merchant_city" IS NOT NULL) = ("transfers"."br_code_kind" IS NOT DISTINCT FROM 'static')),
	CONSTRAINT "transfers_failure_reason_known" CHECK ("transfers"."failure_reason" IS NULL OR "transfers"."failure_reason" IN ('insufficient_funds', 'limit_exceeded', 'provider_rejected', 'not_sent')),
	CONSTRAINT "transfers_failed_iff_compensated" CHECK (("transfers"."failure_reason" IS NOT NULL) = ("transfers"."state" IN ('compensating', 'compensated')))
);
--> statement-breakpoint
CREATE TABLE "account_limits" (
	"account_id" text PRIMARY KEY NOT NULL,
	"per_transfer_cents" bigint,
	"daily_cents" bigint,
	"night_per_transfer_cents" bigint,
	"night_total_cents" bigint,
	"night_starts_at" time,
	CONSTRAINT "account_limits_per_transfer_positive" CHECK ("account_limits"."per_transfer_cents" > 0),
	CONSTRAINT "account_limits_daily_not_negative" CHECK ("account_limits"."daily_cents" >= 0),
	CONSTRAINT "account_limits_night_positive" CHECK ("account_limits"."night_per_transfer_cents" > 0),
	CONSTRAINT "account_limits_night_total_not_negative" CHECK ("account_limits"."night_total_cents" >= 0),
	CONSTRAINT "account_limits_night_starts_evening" CHECK ("account_limits"."night_starts_at" >= '18:00' AND "account_limits"."night_starts_at" <= '23:59')
);
--> statement-breakpoint
CREATE TABLE "account_limits_pending" (
	"account_id" text NOT NULL,
	"limit_name" text NOT NULL,
	"value" jsonb NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	CONSTRAINT "account_limits_pending_account_id_limit_name_pk" PRIMARY KEY("account_id","limit_name"),
	CONSTRAINT "account_limits_pending_limit_known" CHECK ("account_limits_pending"."limit_name" IN ('per_transfer_cents', 'daily_cents', 'night_per_transfer_cents', 'night_total_cents', 'night_starts_at')),
	CONSTRAINT "account_limits_pending_value_typed" CHECK (jsonb_typeof("account_limits_pending"."value") = 'null' OR jsonb_typeof("account_limits_pending"."value") = CASE WHEN "account_limits_pending"."limit_name" = 'night_starts_at' THEN 'string' ELSE 'number' END)
);
--> statement-breakpoint
CREATE TABLE "limit_usage" (
	"account_id" text NOT NULL,
	"period" text NOT NULL,
	"starts_on" date NOT NULL,
	"used_cents" bigint NOT NULL,
	CONSTRAINT "limit_usage_account_id_period_starts_on_pk" PRIMARY KEY("account_id","period","starts_on"),
	CONSTRAINT "limit_usage_period_known" CHECK ("limit_usage"."period" IN ('day', 'night')),
	CONSTRAINT "limit_usage_used_not_negative" CHECK ("limit_usage"."used_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "lookup_budgets" (
	"account_id" text PRIMARY KEY NOT NULL,
	"empty_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "night_usage_charges" (
	"transfer_id" uuid PRIMARY KEY NOT NULL,
	"evening" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_by" text,
	"approved_at" timestamp with time zone,
	CONSTRAINT "credit_requests_key" UNIQUE("account_id","idempotency_key"),
	CONSTRAINT "credit_requests_amount_positive" CHECK ("credit_requests"."amount_cents" > 0),
	CONSTRAINT "credit_requests_four_eyes" CHECK ("credit_requests"."approved_by" IS NULL OR "credit_requests"."approved_by" <> "credit_requests"."requested_by"),
	CONSTRAINT "credit_requests_machines_never_approve" CHECK ("credit_requests"."approved_by" IS DISTINCT FROM 'ops-token'),
	CONSTRAINT "credit_requests_approved_together" CHECK (("credit_requests"."approved_by" IS NULL) = ("credit_requests"."approved_at" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "operator_actions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"account_id" text,
	"transfer_id" uuid,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "operator_actions_action_known" CHECK ("operator_actions"."action" IN ('account_created', 'credit', 'credit_requested', 'credit_approved', 'limits_changed', 'transfer_resolved', 'reconciliation_run')),
	CONSTRAINT "operator_actions_actor_present" CHECK (length("operator_actions"."actor") BETWEEN 1 AND 320)
);
--> statement-breakpoint
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
CREATE TABLE "provider_reconciliation_cases" (
	"transfer_id" uuid PRIMARY KEY NOT NULL,
	"end_to_end_id" text,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"run_id" bigint NOT NULL,
	"evidence" jsonb NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"decision" text,
	"note" text,
	CONSTRAINT "provider_reconciliation_cases_decided_together" CHECK (("provider_reconciliation_cases"."decided_at" IS NULL) = ("provider_reconciliation_cases"."decided_by" IS NULL) AND ("provider_reconciliation_cases"."decided_at" IS NULL) = ("provider_reconciliation_cases"."decision" IS NULL) AND ("provider_reconciliation_cases"."decided_at" IS NULL) = ("provider_reconciliation_cases"."note" IS NULL)),
	CONSTRAINT "provider_reconciliation_cases_decision_known" CHECK ("provider_reconciliation_cases"."decision" IS NULL OR "provider_reconciliation_cases"."decision" IN ('recovered', 'written_off', 'provider_error')),
	CONSTRAINT "provider_reconciliation_cases_note_bounded" CHECK ("provider_reconciliation_cases"."note" IS NULL OR char_length("provider_reconciliation_cases"."note") BETWEEN 1 AND 1000)
);
--> statement-breakpoint
CREATE TABLE "provider_reconciliation_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"window_from" timestamp with time zone NOT NULL,
	"window_to" timestamp with time zone NOT NULL,
	"actor" text NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ok" boolean NOT NULL,
	"statement_complete" boolean NOT NULL,
	"statement_problem" text,
	"checked" integer NOT NULL,
	"returns_applied" integer NOT NULL,
	"divergences" jsonb NOT NULL,
	CONSTRAINT "provider_reconciliation_runs_window" CHECK ("provider_reconciliation_runs"."window_to" > "provider_reconciliation_runs"."window_from" AND "provider_reconciliation_runs"."window_to" - "provider_reconciliation_runs"."window_from" <= interval '24 hours'),
	CONSTRAINT "provider_reconciliation_runs_problem_iff_incomplete" CHECK ("provider_reconciliation_runs"."statement_complete" = ("provider_reconciliation_runs"."statement_problem" IS NULL)),
	CONSTRAINT "provider_reconciliation_runs_counts" CHECK ("provider_reconciliation_runs"."checked" >= 0 AND "provider_reconciliation_runs"."returns_applied" >= 0),
	CONSTRAINT "provider_reconciliation_runs_divergences_list" CHECK (jsonb_typeof("provider_reconciliation_runs"."divergences") = 'array')
);
--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_hold_id_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."holds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_calls" ADD CONSTRAINT "provider_calls_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_returns" ADD CONSTRAINT "transfer_returns_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_returns" ADD CONSTRAINT "transfer_returns_ledger_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_limits" ADD CONSTRAINT "account_limits_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_limits_pending" ADD CONSTRAINT "account_limits_pending_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "limit_usage" ADD CONSTRAINT "limit_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lookup_budgets" ADD CONSTRAINT "lookup_budgets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "night_usage_charges" ADD CONSTRAINT "night_usage_charges_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_requests" ADD CONSTRAINT "credit_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_event_attempts" ADD CONSTRAINT "transfer_event_attempts_event_id_transfer_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."transfer_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_events" ADD CONSTRAINT "transfer_events_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_events" ADD CONSTRAINT "transfer_events_history_id_transfer_history_id_fk" FOREIGN KEY ("history_id") REFERENCES "public"."transfer_history"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_reconciliation_cases" ADD CONSTRAINT "provider_reconciliation_cases_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_reconciliation_cases" ADD CONSTRAINT "provider_reconciliation_cases_run_id_provider_reconciliation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."provider_reconciliation_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entries_by_account" ON "entries" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "entries_by_transaction" ON "entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "holds_open_by_account" ON "holds" USING btree ("account_id") WHERE "holds"."status" = 'held';--> statement-breakpoint
CREATE INDEX "provider_calls_by_transfer" ON "provider_calls" USING btree ("transfer_id","id");--> statement-breakpoint
CREATE INDEX "provider_calls_sends_by_time" ON "provider_calls" USING btree ("at") WHERE "provider_calls"."kind" = 'send';--> statement-breakpoint
CREATE INDEX "transfer_history_by_transfer" ON "transfer_history" USING btree ("transfer_id","id");--> statement-breakpoint
CREATE INDEX "transfer_returns_by_transfer" ON "transfer_returns" USING btree ("transfer_id","returned_at");--> statement-breakpoint
CREATE INDEX "transfers_by_account_newest" ON "transfers" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transfers_due" ON "transfers" USING btree ("next_check_at") WHERE "transfers"."state" IN ('scheduled', 'started', 'funds_reserved', 'submitted', 'compensating');--> statement-breakpoint
CREATE INDEX "transfers_by_state" ON "transfers" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "transfers_by_end_to_end_id" ON "transfers" USING btree ("end_to_end_id");--> statement-breakpoint
CREATE INDEX "operator_actions_by_account" ON "operator_actions" USING btree ("account_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "operator_actions_by_actor" ON "operator_actions" USING btree ("actor","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transfer_event_attempts_by_event" ON "transfer_event_attempts" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "transfer_events_undelivered" ON "transfer_events" USING btree ("next_attempt_at") WHERE "transfer_events"."delivered_at" IS NULL AND "transfer_events"."parked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "provider_reconciliation_cases_open" ON "provider_reconciliation_cases" USING btree ("opened_at") WHERE "provider_reconciliation_cases"."decided_at" IS NULL;