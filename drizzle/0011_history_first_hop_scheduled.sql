-- A transfer's first hop is `started` (sent at once) or `scheduled` (for a later day): every
-- other hop must be a transition src/saga/states.ts allows.
ALTER TABLE "transfer_history" DROP CONSTRAINT "transfer_history_transition_allowed";
--> statement-breakpoint
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_transition_allowed"
  CHECK (("from_state" IS NULL AND "to_state" IN ('started', 'scheduled')) OR transfer_transition_allowed("from_state", "to_state"));
