// Secrets that travel in URLs: Efí authenticates its webhooks only by the `hmac` query parameter
// of the registered URL (CONTRACT §3b), so any logged URL would hand the webhook to whoever
// reads the logs. Every line we write, and every line of wrangler's that `npm start` passes
// on, goes through this.

const secretQueryParameter = /([?&](?:hmac)=)[^&\s"'\\]*/gi;

export function redactUrlSecrets(text: string): string {
  return text.replace(secretQueryParameter, "$1[redacted]");
}
