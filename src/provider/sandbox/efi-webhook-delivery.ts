// Sends one sandbox webhook in Efí's shape to our own /webhooks/efi/pix, as Efí does with a
// skip-mTLS registration: the secret in `?hmac=`, and from Efí's address (the first of
// EFI_WEBHOOK_IPS, when set). Same bounds and retry schedule as the generic delivery.
import { postToWorker, type WebhookDeliveryResult } from "./webhook-delivery.ts";

/** Through the loopback binding: the host is never resolved. */
export const sandboxEfiWebhookUrl = "http://sandbox.internal/webhooks/efi/pix";

export async function deliverEfiWebhook(input: {
  hmac: string | undefined;
  allowedIps: string | undefined;
  item: Record<string, unknown>;
}): Promise<WebhookDeliveryResult> {
  if (input.hmac === undefined || input.hmac === "") return { delivered: false, httpStatus: null, error: "EFI_WEBHOOK_HMAC is empty" };
  const url = new URL(sandboxEfiWebhookUrl);
  url.searchParams.set("hmac", input.hmac);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const efiIp = (input.allowedIps ?? "").split(",")[0]?.trim() ?? "";
  if (efiIp !== "") headers["cf-connecting-ip"] = efiIp;
  return postToWorker(new Request(url, { method: "POST", headers, body: JSON.stringify({ pix: [input.item] }) }));
}
