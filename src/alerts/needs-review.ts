// A transfer entering needs_review needs a person: it is logged as one structured line
// (`transfer_needs_review`) and, when OPS_ALERT_URL is set, POSTed there signed with the first
// OPS_ALERT_SECRET: its own key, so the alert receiver never holds the one that verifies the
// provider. Delivery runs beside the saga (waitUntil): the saga never waits on it, and nothing
// here throws into it. The console's queue stays the source of truth if an alert is lost.
import { configOf } from "../config/isolate.ts";
import { logTransfer } from "../lib/log.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";
import { type DeliveryResult, deliverAlert, type Fetcher } from "./deliver.ts";

export const needsReviewEvent = "transfer_needs_review";

export interface AlertRuntime {
  waitUntil(promise: Promise<unknown>): void;
  fetcher?: Fetcher;
  sleep?: (delayMs: number) => Promise<void>;
}

export function needsReviewPayload(saga: SagaRecord, nowMs: number): string {
  return JSON.stringify({
    type: "transfer.needs_review",
    timestamp: new Date(nowMs).toISOString(),
    data: {
      transfer_id: saga.id,
      account_id: saga.accountId,
      amount_cents: saga.amountCents,
      created_at: new Date(saga.createdAtMs).toISOString(),
      deadline_at: new Date(saga.deadlineAtMs).toISOString(),
    },
  });
}

/** Called by the saga object after every step; acts only on the step that entered needs_review. */
export function noticeNeedsReview(env: Env, runtime: AlertRuntime, before: SagaRecord, after: SagaRecord): void {
  if (before.state === "needs_review" || after.state !== "needs_review") return;
  try {
    // A malformed URL or a missing key is a configuration problem (src/config/): the Worker then
    // serves nothing, and this line is all that is left.
    const config = configOf(env);
    const alert = config.ok ? config.config.opsAlert : null;
    logTransfer(after.id, needsReviewEvent, {
      account_id: after.accountId,
      amount_cents: after.amountCents,
      alert_url_set: alert !== null,
    });
    if (alert === null) return;
    const delivery = deliverAlert({
      url: alert.url,
      secret: alert.secret,
      webhookId: `alert_needs_review_${after.id}`,
      body: needsReviewPayload(after, Date.now()),
      fetcher: runtime.fetcher ?? ((request) => fetch(request)),
      sleep: runtime.sleep ?? ((delayMs) => new Promise((resolve) => setTimeout(resolve, delayMs))),
      nowMs: () => Date.now(),
    }).then((result: DeliveryResult) =>
      logTransfer(after.id, `ops_alert_${result.outcome}`, { ...result }, result.outcome === "delivered" ? "info" : "error"),
    );
    runtime.waitUntil(delivery.catch((error: unknown) => logTransfer(after.id, "ops_alert_failed", { message: String(error) }, "error")));
  } catch (error) {
    // An alert must never fail the saga step that triggered it.
    logTransfer(after.id, "ops_alert_failed", { message: error instanceof Error ? error.message : String(error) }, "error");
  }
}
