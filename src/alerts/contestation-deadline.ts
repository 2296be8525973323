// A contestation past its deadline (created + 11 days, business time) without a decision: the
// Central Bank's MED 2.0 refund window has run out and a person must chase it. Logged as one
// line and sent as a signed ops alert (schedule.ts), once per contestation: its object marks the
// row first (contestations.deadline_alerted_at) and the webhook-id repeats if it is sent again.
import { logTransfer } from "../lib/log.ts";
import type { ContestationRecord } from "../transfers/contestations.ts";
import { type AlertRuntime, alertBody, scheduleOpsAlert } from "./schedule.ts";

export const contestationDeadlineEvent = "contestation_past_deadline";

export function contestationDeadlinePayload(record: ContestationRecord, nowMs: number): string {
  return alertBody("contestation.past_deadline", nowMs, {
    contestation_id: record.id,
    transfer_id: record.transferId,
    account_id: record.accountId,
    state: record.state,
    psp_ref: record.pspRef,
    deadline_at: new Date(record.deadlineAtMs).toISOString(),
  });
}

export function noticeContestationPastDeadline(env: Env, runtime: AlertRuntime, record: ContestationRecord): void {
  const alertUrlSet = scheduleOpsAlert(env, runtime, {
    webhookId: `alert_contestation_deadline_${record.id}`,
    body: contestationDeadlinePayload(record, Date.now()),
    context: { transfer_id: record.transferId, contestation_id: record.id },
  });
  logTransfer(
    record.transferId,
    contestationDeadlineEvent,
    { contestation_id: record.id, state: record.state, alert_url_set: alertUrlSet },
    "warn",
  );
}
