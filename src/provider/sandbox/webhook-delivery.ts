// Sends one sandbox webhook to our own /webhooks/provider, signed like a real PSP would, and
// decides when to try again. Retries are bounded: a receiver that keeps failing is given up on,
// which the saga survives because it polls the provider anyway.
import { exports } from "cloudflare:workers";
import { firstWebhookSecret, signedWebhookHeaders } from "../../lib/webhook-signature.ts";
import { settledWithin } from "../../lib/within.ts";

/** Through the loopback binding: the host is never resolved. */
export const sandboxWebhookUrl = "http://sandbox.internal/webhooks/provider";
export const webhookAttemptsMax = 5;
/** Waits 1 s, 2 s, 4 s, 8 s between the attempts. */
export const webhookRetryBaseMs = 1_000;
/** The receiver pokes a saga that may call the provider: give it that long before calling it failed. */
export const webhookDeliveryTimeoutMs = 15_000;

export type WebhookDeliveryResult =
  | { delivered: true; httpStatus: number }
  | { delivered: false; httpStatus: number | null; error: string };

export type NextWebhookAttempt = { state: "delivered" } | { state: "pending"; dueAtMs: number } | { state: "abandoned" };

/** After `attemptsMade` failed attempts (from 1), when to try again, if ever. */
export function nextAttemptAfterFailure(attemptsMade: number, nowMs: number): NextWebhookAttempt {
  if (attemptsMade >= webhookAttemptsMax) return { state: "abandoned" };
  return { state: "pending", dueAtMs: nowMs + webhookRetryBaseMs * 2 ** (attemptsMade - 1) };
}

export function webhookBody(input: { idempotencyKey: string; endToEndId: string | null; status: "confirmed" | "rejected" }): string {
  return JSON.stringify({
    type: "pix.payment.updated",
    data: { idempotency_key: input.idempotencyKey, end_to_end_id: input.endToEndId, status: input.status },
  });
}

export async function deliverWebhook(input: { secrets: string; webhookId: string; body: string }): Promise<WebhookDeliveryResult> {
  const secret = firstWebhookSecret(input.secrets);
  if (secret === null) return { delivered: false, httpStatus: null, error: "SANDBOX_WEBHOOK_SECRET is empty" };
  try {
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const headers = await signedWebhookHeaders({ secret, id: input.webhookId, timestampSeconds, body: input.body });
    const request = new Request(sandboxWebhookUrl, {
      method: "POST",
      headers,
      body: input.body,
    });
    return await postToWorker(request);
  } catch (error) {
    return { delivered: false, httpStatus: null, error: error instanceof Error ? error.message : String(error) };
  }
}

/** One delivery attempt to this Worker through the loopback, bounded by webhookDeliveryTimeoutMs. */
export async function postToWorker(request: Request): Promise<WebhookDeliveryResult> {
  try {
    const response = await settledWithin(exports.default.fetch(request), webhookDeliveryTimeoutMs);
    if (response === null) return { delivered: false, httpStatus: null, error: `timeout after ${webhookDeliveryTimeoutMs} ms` };
    await response.body?.cancel();
    if (response.ok) return { delivered: true, httpStatus: response.status };
    return { delivered: false, httpStatus: response.status, error: `http_${response.status}` };
  } catch (error) {
    return { delivered: false, httpStatus: null, error: error instanceof Error ? error.message : String(error) };
  }
}
