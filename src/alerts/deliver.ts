// Delivers one signed alert (Standard Webhooks, the scheme providers use to call us) with
// bounded retries and exponential backoff. Everything that waits or talks is injected, so
// tests drive it without a network or a clock; it returns a result and never throws.
import { signedWebhookHeaders } from "../lib/webhook-signature.ts";

/** Five tries over about 15 s of backoff (1, 2, 4, 8 s): rides out a receiver's restart. */
export const alertAttemptsMax = 5;
export const alertFirstRetryDelayMs = 1_000;
/** One slow receiver must not hold a try open for long; the next try gets a fresh timeout. */
export const alertAttemptTimeoutMs = 5_000;

export type Fetcher = (request: Request) => Promise<Response>;

export interface AlertDelivery {
  url: string;
  /** A `whsec_<base64>` secret: the first of OPS_ALERT_SECRET (never the provider's WEBHOOK_SECRET). */
  secret: string;
  /** The same on every try, so the receiver can drop duplicates (Standard Webhooks `webhook-id`). */
  webhookId: string;
  body: string;
  fetcher: Fetcher;
  sleep: (delayMs: number) => Promise<void>;
  nowMs: () => number;
  attemptsMax?: number;
  firstRetryDelayMs?: number;
  attemptTimeoutMs?: number;
}

export type DeliveryResult =
  | { outcome: "delivered"; attempts: number; status: number }
  | { outcome: "refused"; attempts: number; status: number }
  | { outcome: "gave_up"; attempts: number; lastProblem: string };

/**
 * A 2xx is delivered. Other 4xx answers (bad signature, unknown path) will not change by
 * trying again, so they end delivery; 408, 425, 429 and 5xx are the receiver's passing trouble.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

async function attempt(delivery: AlertDelivery, timeoutMs: number): Promise<Response> {
  const timestampSeconds = Math.floor(delivery.nowMs() / 1000);
  // Signed per try: the timestamp must be fresh for the receiver's tolerance window.
  const headers = await signedWebhookHeaders({ secret: delivery.secret, id: delivery.webhookId, timestampSeconds, body: delivery.body });
  const request = new Request(delivery.url, {
    method: "POST",
    headers,
    body: delivery.body,
    signal: AbortSignal.timeout(timeoutMs),
    // A 3xx is the receiver's answer, not a new address to post the alert to (a refusal).
    redirect: "manual",
  });
  return delivery.fetcher(request);
}

export async function deliverAlert(delivery: AlertDelivery): Promise<DeliveryResult> {
  const attemptsMax = delivery.attemptsMax ?? alertAttemptsMax;
  const firstRetryDelayMs = delivery.firstRetryDelayMs ?? alertFirstRetryDelayMs;
  const timeoutMs = delivery.attemptTimeoutMs ?? alertAttemptTimeoutMs;
  let lastProblem = "not tried";
  for (let n = 1; n <= attemptsMax; n++) {
    try {
      const response = await attempt(delivery, timeoutMs);
      await response.body?.cancel();
      if (response.ok) return { outcome: "delivered", attempts: n, status: response.status };
      if (!isRetryableStatus(response.status)) return { outcome: "refused", attempts: n, status: response.status };
      lastProblem = `status ${response.status}`;
    } catch (error) {
      lastProblem = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    if (n < attemptsMax) await delivery.sleep(firstRetryDelayMs * 2 ** (n - 1));
  }
  return { outcome: "gave_up", attempts: attemptsMax, lastProblem };
}
