// An outbound event refused for three days is parked, and its transfer's later events wait:
// a person must look. Logged as `transfer_event_parked` and, when OPS_ALERT_URL is set, POSTed
// there like the needs_review alert (signed with OPS_ALERT_SECRET, beside the object's
// work, never in its way). GET /ops/events lists parked events first whatever happens here.
import { logTransfer } from "../lib/log.ts";
import { type AlertRuntime, alertBody, scheduleOpsAlert } from "./schedule.ts";

export function noticeEventParked(env: Env, runtime: AlertRuntime, transferId: string, eventId: string): void {
  logTransfer(transferId, "transfer_event_parked", { event_id: eventId }, "error");
  scheduleOpsAlert(env, runtime, {
    webhookId: `alert_event_parked_${eventId}`,
    body: alertBody("transfer.event_parked", Date.now(), { transfer_id: transferId, event_id: eventId }),
    context: { transfer_id: transferId, event_id: eventId },
  });
}
