// A transfer entering needs_review needs a person: it is logged as one structured line
// (`transfer_needs_review`) and, when OPS_ALERT_URL is set, POSTed there signed with the first
// WEBHOOK_SECRET. Delivery runs beside the saga (waitUntil): the saga never waits on it, and
// nothing here throws into it. The console's queue stays the source of truth if an alert is lost.
import { firstWebhookSecret } from "../provider/webhook-signature.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";
import { type DeliveryResult, deliverAlert, type Fetcher } from "./deliver.ts";

export const needsReviewEvent = "transfer_needs_review";

export interface AlertRuntime {
  waitUntil(promise: Promise<unknown>): void;
  fetcher?: Fetcher;
  sleep?: (delayMs: number) => Promise<void>;
}

function logLine(level: "info" | "error", event: string, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ event, ...fields });
  if (level === "error") console.error(line);
  else console.log(line);
}

/** The alert's URL, or null when unset; a malformed one is logged, never fatal. */
export function alertUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === "") return null;
  try {
    const url = new URL(raw.trim());
    if (url.protocol === "https:" || url.protocol === "http:") return url.toString();
  } catch {
    // Falls through to the log below.
  }
  logLine("error", "ops_alert_url_invalid", { message: "OPS_ALERT_URL must be an http(s) URL; no alert sent" });
  return null;
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
    const url = alertUrl(env.OPS_ALERT_URL);
    logLine("info", needsReviewEvent, {
      transfer_id: after.id,
      account_id: after.accountId,
      amount_cents: after.amountCents,
      alert_url_set: url !== null,
    });
    if (url === null) return;
    const secret = firstWebhookSecret(env.WEBHOOK_SECRET ?? "");
    if (secret === null) {
      logLine("error", "ops_alert_unsigned", { transfer_id: after.id, message: "WEBHOOK_SECRET is empty; no alert sent" });
      return;
    }
    const delivery = deliverAlert({
      url,
      secret,
      webhookId: `alert_needs_review_${after.id}`,
      body: needsReviewPayload(after, Date.now()),
      fetcher: runtime.fetcher ?? ((request) => fetch(request)),
      sleep: runtime.sleep ?? ((delayMs) => new Promise((resolve) => setTimeout(resolve, delayMs))),
      nowMs: () => Date.now(),
    }).then((result: DeliveryResult) =>
      logLine(result.outcome === "delivered" ? "info" : "error", `ops_alert_${result.outcome}`, { transfer_id: after.id, ...result }),
    );
    runtime.waitUntil(
      delivery.catch((error: unknown) => logLine("error", "ops_alert_failed", { transfer_id: after.id, message: String(error) })),
    );
  } catch (error) {
    // An alert must never fail the saga step that triggered it.
    logLine("error", "ops_alert_failed", { transfer_id: after.id, message: error instanceof Error ? error.message : String(error) });
  }
}
