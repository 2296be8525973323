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
	CONSTRAINT "ledger_transactions_kind_known" CHECK ("ledger_transactions"."kind" IN ('credit', 'settle')),
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
	CONSTRAINT "transfer_history_actor_known" CHECK ("transfer_history"."actor" IN ('saga', 'provider', 'operator'))
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
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfers_idempotency_key_per_account" UNIQUE("account_id","idempotency_key"),
	CONSTRAINT "transfers_amount_positive" CHECK ("transfers"."amount_cents" > 0),
	CONSTRAINT "transfers_state_known" CHECK ("transfers"."state" IN ('started', 'funds_reserved', 'submitted', 'completed', 'compensating', 'compensated', 'needs_review')),
	CONSTRAINT "transfers_pix_key_type_known" CHECK ("transfers"."pix_key_type" IN ('cpf', 'cnpj', 'email', 'phone', 'evp')),
	CONSTRAINT "transfers_description_bounded" CHECK (char_length("transfers"."description") <= 140),
	CONSTRAINT "transfers_failure_reason_known" CHECK ("transfers"."failure_reason" IS NULL OR "transfers"."failure_reason" IN ('insufficient_funds', 'limit_exceeded', 'provider_rejected', 'not_sent')),
	CONSTRAINT "transfers_failed_iff_compensated" CHECK (("transfers"."failure_reason" IS NOT NULL) = ("transfers"."state" IN ('compensating', 'compensated')))
);
--> statement-breakpoint
CREATE TABLE "account_limits" (
	"account_id" text PRIMARY KEY NOT NULL,
	"per_transfer_cents" bigint,
	"daily_cents" bigint,
	"night_per_transfer_cents" bigint,
	"night_starts_at" time,
	CONSTRAINT "account_limits_per_transfer_positive" CHECK ("account_limits"."per_transfer_cents" > 0),
	CONSTRAINT "account_limits_daily_not_negative" CHECK ("account_limits"."daily_cents" >= 0),
	CONSTRAINT "account_limits_night_positive" CHECK ("account_limits"."night_per_transfer_cents" > 0),
	CONSTRAINT "account_limits_night_starts_evening" CHECK ("account_limits"."night_starts_at" >= '18:00' AND "account_limits"."night_starts_at" <= '23:59')
);
--> statement-breakpoint
CREATE TABLE "daily_usage" (
	"account_id" text NOT NULL,
	"day" date NOT NULL,
	"used_cents" bigint NOT NULL,
	CONSTRAINT "daily_usage_account_id_day_pk" PRIMARY KEY("account_id","day"),
	CONSTRAINT "daily_usage_used_not_negative" CHECK ("daily_usage"."used_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_hold_id_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."holds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_calls" ADD CONSTRAINT "provider_calls_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_limits" ADD CONSTRAINT "account_limits_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_usage" ADD CONSTRAINT "daily_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entries_by_account" ON "entries" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "entries_by_transaction" ON "entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "holds_open_by_account" ON "holds" USING btree ("account_id") WHERE "holds"."status" = 'held';--> statement-breakpoint
CREATE INDEX "provider_calls_by_transfer" ON "provider_calls" USING btree ("transfer_id","id");--> statement-breakpoint
CREATE INDEX "transfer_history_by_transfer" ON "transfer_history" USING btree ("transfer_id","id");--> statement-breakpoint
CREATE INDEX "transfers_by_account_newest" ON "transfers" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transfers_due" ON "transfers" USING btree ("next_check_at") WHERE "transfers"."state" IN ('started', 'funds_reserved', 'submitted', 'compensating');--> statement-breakpoint
CREATE INDEX "transfers_by_state" ON "transfers" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "transfers_by_end_to_end_id" ON "transfers" USING btree ("end_to_end_id");