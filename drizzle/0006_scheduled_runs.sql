ALTER TABLE "transfers" ADD COLUMN "ran_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "transfers_scheduled_runs" ON "transfers" USING btree ("account_id","ran_at") WHERE "transfers"."ran_at" IS NOT NULL;--> statement-breakpoint
-- Hand-written tail: a scheduled transfer that ran before this column counts from its run.
UPDATE "transfers" t SET "ran_at" = h."at" FROM "transfer_history" h
 WHERE h."transfer_id" = t."id" AND h."from_state" = 'scheduled' AND h."to_state" = 'started';
