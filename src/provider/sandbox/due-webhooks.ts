// The sandbox's webhook sender: every payment whose message is due gets it, signed as its
// dialect's PSP signs (ours with SANDBOX_WEBHOOK_SECRET, Efí's with the HMAC of its webhook URL),
// and the next attempt is scheduled after a failure; a payment whose money comes back later gets
// a new message then, so its saga asks again. Run by the sandbox object's alarm.
import { logEvent } from "../../lib/log.ts";
import { behaviourFor } from "./behaviours.ts";
import { efiWebhookItem } from "./efi-answers.ts";
import { deliverEfiWebhook } from "./efi-webhook-delivery.ts";
import { nextReturnAtMs } from "./returns.ts";
import type { PaymentStore } from "./store.ts";
import { deliverWebhook, nextAttemptAfterFailure, webhookBody } from "./webhook-delivery.ts";

export interface WebhookAttemptReport {
  idempotencyKey: string;
  webhookId: string;
  claimedStatus: "confirmed" | "rejected";
  delivered: boolean;
  httpStatus: number | null;
}

/** What signs the messages: the sandbox's own secret, and the Worker's Efí webhook settings. */
export interface WebhookKeys {
  sandboxSecret: string;
  env: Pick<Env, "EFI_WEBHOOK_HMAC" | "EFI_WEBHOOK_IPS">;
}

/** Sends every webhook due at `nowMs`, recording each attempt in the store. */
export async function deliverDueWebhooks(store: PaymentStore, keys: WebhookKeys, nowMs: number): Promise<WebhookAttemptReport[]> {
  const reports: WebhookAttemptReport[] = [];
  for (const row of store.dueWebhooks(nowMs)) {
    const claimedStatus = behaviourFor(row.pix_key).webhookStatus;
    if (claimedStatus === null || row.webhook_id === null) continue;
    const result =
      row.dialect === "efi"
        ? await deliverEfiWebhook({
            hmac: keys.env.EFI_WEBHOOK_HMAC,
            allowedIps: keys.env.EFI_WEBHOOK_IPS,
            item: efiWebhookItem(row, claimedStatus, Date.now()),
          })
        : await deliverWebhook({
            secrets: keys.sandboxSecret,
            webhookId: row.webhook_id,
            body: webhookBody({ idempotencyKey: row.idempotency_key, endToEndId: row.end_to_end_id, status: claimedStatus }),
          });
    const attempts = row.webhook_attempts + 1;
    const next = result.delivered ? { state: "delivered" as const } : nextAttemptAfterFailure(attempts, Date.now());
    store.recordWebhookAttempt(row.idempotency_key, {
      state: next.state,
      attempts,
      dueAtMs: next.state === "pending" ? next.dueAtMs : null,
    });
    // A payment whose money comes back gets a new message when it does, so its saga asks.
    const returnAtMs = next.state === "pending" ? null : nextReturnAtMs(row, nowMs);
    if (returnAtMs !== null) store.scheduleWebhook(row.idempotency_key, `msg_${crypto.randomUUID()}`, returnAtMs);
    if (!result.delivered) {
      logEvent("sandbox_webhook_failed", { idempotency_key: row.idempotency_key, attempts, next: next.state, error: result.error }, "warn");
    }
    reports.push({ idempotencyKey: row.idempotency_key, webhookId: row.webhook_id, claimedStatus, ...result });
  }
  return reports;
}
