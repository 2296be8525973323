// An outbound event refused for three days is parked, and its transfer's later events wait:
// a person must look. Logged as `transfer_event_parked` and, when OPS_ALERT_URL is set, POSTed
// there like the needs_review alert (signed with OPS_ALERT_SECRET, beside the object's
// work, never in its way). GET /ops/events lists parked events first whatever happens here.
import { configOf } from "../config/isolate.ts";
import { logTransfer } from "../lib/log.ts";
import { deliverAlert } from "./deliver.ts";
import type { AlertRuntime } from "./needs-review.ts";

export function noticeEventParked(env: Env, runtime: AlertRuntime, transferId: string, eventId: string): void {
  logTransfer(transferId, "transfer_event_parked", { event_id: eventId }, "error");
  const config = configOf(env);
  const opsAlert = config.ok ? config.config.opsAlert : null;
  if (opsAlert === null) return;
  const delivery = deliverAlert({
    url: opsAlert.url,
    secret: opsAlert.secret,
    webhookId: `alert_event_parked_${eventId}`,
    body: JSON.stringify({
      type: "transfer.event_parked",
      timestamp: new Date().toISOString(),
      data: { transfer_id: transferId, event_id: eventId },
    }),
    fetcher: runtime.fetcher ?? ((request) => fetch(request)),
    sleep: runtime.sleep ?? ((delayMs) => new Promise((resolve) => setTimeout(resolve, delayMs))),
    nowMs: () => Date.now(),
  }).then((result) => logTransfer(transferId, `ops_alert_${result.outcome}`, { event_id: eventId }));
  runtime.waitUntil(
    delivery.catch((error: unknown) => logTransfer(transferId, "ops_alert_failed", { event_id: eventId, message: String(error) }, "error")),
  );
}
