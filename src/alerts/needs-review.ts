// A transfer entering needs_review needs a person: it is logged as one structured line
// (`transfer_needs_review`) and sent as a signed ops alert (schedule.ts). The console's queue
// stays the source of truth if an alert is lost.
import { logTransfer } from "../lib/log.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";
import { type AlertRuntime, alertBody, scheduleOpsAlert } from "./schedule.ts";

export const needsReviewEvent = "transfer_needs_review";

export function needsReviewPayload(saga: SagaRecord, nowMs: number): string {
  return alertBody("transfer.needs_review", nowMs, {
    transfer_id: saga.id,
    account_id: saga.accountId,
    amount_cents: saga.amountCents,
    created_at: new Date(saga.createdAtMs).toISOString(),
    deadline_at: new Date(saga.deadlineAtMs).toISOString(),
  });
}

/** Called by the saga object after every step; acts only on the step that entered needs_review. */
export function noticeNeedsReview(env: Env, runtime: AlertRuntime, before: SagaRecord, after: SagaRecord): void {
  if (before.state === "needs_review" || after.state !== "needs_review") return;
  const alertUrlSet = scheduleOpsAlert(env, runtime, {
    webhookId: `alert_needs_review_${after.id}`,
    body: needsReviewPayload(after, Date.now()),
    context: { transfer_id: after.id },
  });
  logTransfer(after.id, needsReviewEvent, { account_id: after.accountId, amount_cents: after.amountCents, alert_url_set: alertUrlSet });
}
