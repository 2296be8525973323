ALTER TABLE "transfer_history" DROP CONSTRAINT "transfer_history_actor_known";--> statement-breakpoint
ALTER TABLE "transfers" DROP CONSTRAINT "transfers_state_known";--> statement-breakpoint
DROP INDEX "transfers_due";--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "scheduled_for" date;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "short_runs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "transfers_due" ON "transfers" USING btree ("next_check_at") WHERE "transfers"."state" IN ('scheduled', 'started', 'funds_reserved', 'submitted', 'compensating');--> statement-breakpoint
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_actor_known" CHECK ("transfer_history"."actor" IN ('saga', 'provider', 'operator', 'client'));--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_state_known" CHECK ("transfers"."state" IN ('scheduled', 'started', 'funds_reserved', 'submitted', 'completed', 'compensating', 'compensated', 'needs_review', 'canceled'));