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
ALTER TABLE "provider_reconciliation_cases" ADD CONSTRAINT "provider_reconciliation_cases_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_reconciliation_cases" ADD CONSTRAINT "provider_reconciliation_cases_run_id_provider_reconciliation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."provider_reconciliation_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provider_reconciliation_cases_open" ON "provider_reconciliation_cases" USING btree ("opened_at") WHERE "provider_reconciliation_cases"."decided_at" IS NULL;--> statement-breakpoint
CREATE INDEX "provider_calls_sends_by_time" ON "provider_calls" USING btree ("at") WHERE "provider_calls"."kind" = 'send';