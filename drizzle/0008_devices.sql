CREATE TABLE "devices" (
	"account_id" text NOT NULL,
	"device_id" text NOT NULL,
	"name" text NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"registered_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_account_id_device_id_pk" PRIMARY KEY("account_id","device_id"),
	CONSTRAINT "devices_device_id_printable" CHECK ("devices"."device_id" ~ '^[\x20-\x7e]{1,128}$'),
	CONSTRAINT "devices_name_bounded" CHECK (char_length("devices"."name") BETWEEN 1 AND 64),
	CONSTRAINT "devices_registered_by_present" CHECK (length("devices"."registered_by") BETWEEN 1 AND 320)
);
--> statement-breakpoint
ALTER TABLE "limit_usage" DROP CONSTRAINT "limit_usage_period_known";--> statement-breakpoint
ALTER TABLE "operator_actions" DROP CONSTRAINT "operator_actions_action_known";--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "device_id" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "device_registered" boolean;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transfers_by_device_newest" ON "transfers" USING btree ("account_id","device_id","created_at" DESC NULLS LAST) WHERE "transfers"."device_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_device_id_printable" CHECK ("transfers"."device_id" ~ '^[\x20-\x7e]{1,128}$');--> statement-breakpoint
ALTER TABLE "limit_usage" ADD CONSTRAINT "limit_usage_period_known" CHECK ("limit_usage"."period" IN ('day', 'night', 'new_device'));--> statement-breakpoint
ALTER TABLE "operator_actions" ADD CONSTRAINT "operator_actions_action_known" CHECK ("operator_actions"."action" IN ('account_created', 'credit', 'credit_requested', 'credit_approved', 'limits_changed', 'transfer_resolved', 'reconciliation_run', 'contestation_submitted', 'contestation_decided', 'device_registered', 'device_removed'));