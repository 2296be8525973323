CREATE TABLE "recurring_transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"pix_key" text NOT NULL,
	"pix_key_type" text NOT NULL,
	"description" text,
	"frequency" text NOT NULL,
	"first_date" date NOT NULL,
	"occurrence_count" integer NOT NULL,
	"state" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_fingerprint" text NOT NULL,
	"first_response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recurring_transfers_idempotency_key_per_account" UNIQUE("account_id","idempotency_key"),
	CONSTRAINT "recurring_transfers_amount_positive" CHECK ("recurring_transfers"."amount_cents" > 0),
	CONSTRAINT "recurring_transfers_count_bounded" CHECK ("recurring_transfers"."occurrence_count" BETWEEN 2 AND 60),
	CONSTRAINT "recurring_transfers_frequency_known" CHECK ("recurring_transfers"."frequency" IN ('weekly', 'monthly')),
	CONSTRAINT "recurring_transfers_state_known" CHECK ("recurring_transfers"."state" IN ('active', 'finished', 'canceled')),
	CONSTRAINT "recurring_transfers_pix_key_type_known" CHECK ("recurring_transfers"."pix_key_type" IN ('cpf', 'cnpj', 'email', 'phone', 'evp')),
	CONSTRAINT "recurring_transfers_description_bounded" CHECK (char_length("recurring_transfers"."description") <= 140)
);
--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "recurring_transfer_id" uuid;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "occurrence" integer;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "retry_of" uuid;--> statement-breakpoint
ALTER TABLE "recurring_transfers" ADD CONSTRAINT "recurring_transfers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recurring_transfers_by_account_newest" ON "recurring_transfers" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_recurring_transfer_id_recurring_transfers_id_fk" FOREIGN KEY ("recurring_transfer_id") REFERENCES "public"."recurring_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_retry_of_transfers_id_fk" FOREIGN KEY ("retry_of") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_one_per_occurrence" ON "transfers" USING btree ("recurring_transfer_id","occurrence") WHERE "transfers"."recurring_transfer_id" IS NOT NULL AND "transfers"."retry_of" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_one_retry_per_occurrence" ON "transfers" USING btree ("retry_of") WHERE "transfers"."retry_of" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "transfers_scheduled_by_account" ON "transfers" USING btree ("account_id") WHERE "transfers"."state" = 'scheduled';--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_occurrence_of_recurrence" CHECK (("transfers"."recurring_transfer_id" IS NULL) = ("transfers"."occurrence" IS NULL) AND "transfers"."occurrence" >= 1);--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_retry_of_occurrence" CHECK ("transfers"."retry_of" IS NULL OR "transfers"."recurring_transfer_id" IS NOT NULL);