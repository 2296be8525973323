CREATE TABLE "lookup_budgets" (
	"account_id" text PRIMARY KEY NOT NULL,
	"empty_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lookup_budgets" ADD CONSTRAINT "lookup_budgets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;