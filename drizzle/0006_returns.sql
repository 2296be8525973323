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
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_known";--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "returned_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_returns" ADD CONSTRAINT "transfer_returns_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_returns" ADD CONSTRAINT "transfer_returns_ledger_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transfer_returns_by_transfer" ON "transfer_returns" USING btree ("transfer_id","returned_at");--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_known" CHECK ("ledger_transactions"."kind" IN ('credit', 'settle', 'return'));--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_returned_within_amount" CHECK ("transfers"."returned_cents" >= 0 AND "transfers"."returned_cents" <= "transfers"."amount_cents");