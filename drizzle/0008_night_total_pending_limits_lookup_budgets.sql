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
CREATE TABLE "lookup_budgets" (
	"account_id" text PRIMARY KEY NOT NULL,
	"empty_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "night_usage" (
	"account_id" text NOT NULL,
	"evening" date NOT NULL,
	"used_cents" bigint NOT NULL,
	CONSTRAINT "night_usage_account_id_evening_pk" PRIMARY KEY("account_id","evening"),
	CONSTRAINT "night_usage_used_not_negative" CHECK ("night_usage"."used_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "night_usage_charges" (
	"transfer_id" uuid PRIMARY KEY NOT NULL,
	"evening" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_limits" ADD COLUMN "night_total_cents" bigint;--> statement-breakpoint
ALTER TABLE "account_limits_pending" ADD CONSTRAINT "account_limits_pending_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lookup_budgets" ADD CONSTRAINT "lookup_budgets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "night_usage" ADD CONSTRAINT "night_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "night_usage_charges" ADD CONSTRAINT "night_usage_charges_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_limits" ADD CONSTRAINT "account_limits_night_total_not_negative" CHECK ("account_limits"."night_total_cents" >= 0);