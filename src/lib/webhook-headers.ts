// The headers of a Standard Webhooks request (CONTRACT §3), in one place for every sender: the
// sandbox's provider webhooks, our event and alert deliveries, and the tests and bench that act
// as a provider. Kept free of Web Crypto so Node tools can import it too.
export function webhookHeaders(id: string, timestampSeconds: number, signature: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signature,
  };
}
