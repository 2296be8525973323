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
ALTER TABLE "credit_requests" ADD CONSTRAINT "credit_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_actions_by_account" ON "operator_actions" USING btree ("account_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "operator_actions_by_actor" ON "operator_actions" USING btree ("actor","id" DESC NULLS LAST);