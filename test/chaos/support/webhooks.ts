// Provider webhooks as an attacker or a confused provider would send them: signed and true,
// signed and lying, replayed byte for byte (inside or outside the tolerance window), forged,
// or re-serialised after signing. Every one is tallied as a fault by its kind.
import { env } from "cloudflare:test";
import { webhookHeaders } from "../../../src/lib/webhook-headers.ts";
import { signWebhook, webhookToleranceSeconds } from "../../../src/lib/webhook-signature.ts";
import { call } from "../../support/api.ts";
import { tally } from "../../support/faults.ts";

export interface SignedWebhook {
  id: string;
  timestampSeconds: number;
  body: string;
  signature: string;
}

export type WebhookStatus = "confirmed" | "rejected" | "processing";

export function webhookPayload(transferId: string, status: WebhookStatus): unknown {
  return { type: "pix.payment.updated", data: { idempotency_key: transferId, end_to_end_id: null, status } };
}

function secret(): string {
  return (env.WEBHOOK_SECRET ?? "").split(" ")[0] ?? "";
}

export async function signedWebhook(payload: unknown, ageSeconds = 0, key: string = secret()): Promise<SignedWebhook> {
  const id = `msg_${crypto.randomUUID()}`;
  const timestampSeconds = Math.floor(Date.now() / 1000) - ageSeconds;
  const body = JSON.stringify(payload);
  return { id, timestampSeconds, body, signature: await signWebhook({ secret: key, id, timestampSeconds, body }) };
}

export async function deliver(webhook: SignedWebhook, body: string = webhook.body): Promise<number> {
  const response = await call("/webhooks/provider", {
    method: "POST",
    headers: webhookHeaders(webhook.id, webhook.timestampSeconds, webhook.signature),
    body,
  });
  await response.body?.cancel();
  return response.status;
}

export type WebhookVariant = "true" | "lying" | "replayed" | "stale_replay" | "forged" | "reserialised";

/** What each variant must get: only a correctly signed, fresh, byte-exact webhook is accepted. */
export const expectedWebhookStatus: Record<WebhookVariant, number> = {
  true: 202,
  lying: 202,
  replayed: 202,
  stale_replay: 401,
  forged: 401,
  reserialised: 401,
};

/**
 * Sends one webhook of `variant` about `transferId`. `truth` is what the provider would say;
 * `lie` is its opposite. Returns the HTTP status.
 */
export async function sendWebhook(variant: WebhookVariant, transferId: string, truth: WebhookStatus): Promise<number> {
  const lie: WebhookStatus = truth === "confirmed" ? "rejected" : "confirmed";
  await tally({ [`fault.webhook_${variant}`]: 1, operations: 1 });
  switch (variant) {
    case "true":
      return deliver(await signedWebhook(webhookPayload(transferId, truth)));
    case "lying":
      return deliver(await signedWebhook(webhookPayload(transferId, lie)));
    case "replayed": {
      const webhook = await signedWebhook(webhookPayload(transferId, lie));
      await deliver(webhook);
      return deliver(webhook);
    }
    case "stale_replay":
      return deliver(await signedWebhook(webhookPayload(transferId, lie), webhookToleranceSeconds + 60));
    case "forged":
      return deliver(await signedWebhook(webhookPayload(transferId, lie), 0, "whsec_Zm9yZ2VkLXNlY3JldC1ub3Qtb3Vycy0wMTIzNDU2"));
    case "reserialised": {
      const webhook = await signedWebhook(webhookPayload(transferId, truth));
      return deliver(webhook, JSON.stringify(JSON.parse(webhook.body), null, 2));
    }
  }
}
