-- Operators told apart by who they are, not by the email they signed in with (CONTRACT §5):
-- credit requests keep the requester's and the approver's Access identity (`access:<sub>`, or
-- `ops-token`), and four eyes compares those; operator_actions keeps it for credits, which the
-- 24-hour rule sums per operator (drizzle/functions/ops_credit.sql). Rows from before know only
-- the email, which stands in for the identity.
ALTER TABLE "credit_requests" DROP CONSTRAINT "credit_requests_four_eyes";--> statement-breakpoint
ALTER TABLE "credit_requests" DROP CONSTRAINT "credit_requests_machines_never_approve";--> statement-breakpoint
ALTER TABLE "credit_requests" DROP CONSTRAINT "credit_requests_approved_together";--> statement-breakpoint
ALTER TABLE "credit_requests" ADD COLUMN "requested_by_id" text;--> statement-breakpoint
ALTER TABLE "credit_requests" ADD COLUMN "approved_by_id" text;--> statement-breakpoint
UPDATE "credit_requests" SET "requested_by_id" = "requested_by", "approved_by_id" = "approved_by";--> statement-breakpoint
ALTER TABLE "credit_requests" ALTER COLUMN "requested_by_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_actions" ADD COLUMN "operator_id" text;--> statement-breakpoint
UPDATE "operator_actions" SET "operator_id" = "actor" WHERE "action" IN ('credit', 'credit_requested', 'credit_approved');--> statement-breakpoint
ALTER TABLE "credit_requests" ADD CONSTRAINT "credit_requests_four_eyes" CHECK ("credit_requests"."approved_by_id" IS NULL OR "credit_requests"."approved_by_id" <> "credit_requests"."requested_by_id");--> statement-breakpoint
ALTER TABLE "credit_requests" ADD CONSTRAINT "credit_requests_machines_never_approve" CHECK ("credit_requests"."approved_by_id" IS DISTINCT FROM 'ops-token');--> statement-breakpoint
ALTER TABLE "credit_requests" ADD CONSTRAINT "credit_requests_approved_together" CHECK (("credit_requests"."approved_by" IS NULL) = ("credit_requests"."approved_at" IS NULL) AND ("credit_requests"."approved_by" IS NULL) = ("credit_requests"."approved_by_id" IS NULL));--> statement-breakpoint
-- The audit trail and the transfers' history are append-only in the database, whoever writes
-- (CONTRACT §5): nothing updates or deletes a recorded action or hop, so the triggers refuse
-- it (after the backfill above, the last change these rows get).
CREATE TRIGGER operator_actions_no_update_or_delete BEFORE UPDATE OR DELETE ON operator_actions
  FOR EACH ROW EXECUTE FUNCTION append_only_refuse_change();--> statement-breakpoint
CREATE TRIGGER operator_actions_no_truncate BEFORE TRUNCATE ON operator_actions
  FOR EACH STATEMENT EXECUTE FUNCTION append_only_refuse_change();--> statement-breakpoint
CREATE TRIGGER transfer_history_no_update_or_delete BEFORE UPDATE OR DELETE ON transfer_history
  FOR EACH ROW EXECUTE FUNCTION append_only_refuse_change();--> statement-breakpoint
CREATE TRIGGER transfer_history_no_truncate BEFORE TRUNCATE ON transfer_history
  FOR EACH STATEMENT EXECUTE FUNCTION append_only_refuse_change();
