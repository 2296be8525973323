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
ALTER TABLE "transfers" ADD COLUMN "limit_day" date;--> statement-breakpoint
ALTER TABLE "account_limits" ADD CONSTRAINT "account_limits_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_usage" ADD CONSTRAINT "daily_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;