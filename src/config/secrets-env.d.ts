// The bindings wrangler.toml cannot know, so `wrangler types` (worker-configuration.d.ts) does
// not list them: secrets (`wrangler secret put`, .dev.vars locally), the optional URLs set the
// same way, and the Efí mTLS certificate binding added at deploy time. All optional: whether
// what is set is enough is src/config/parse.ts's question, answered once per isolate.
interface Secrets {
  DATABASE_URL: string;
  /** Local only: host:port of the WebSocket-to-TCP proxy in front of a plain PostgreSQL. */
  NEON_WS_PROXY?: string;
  JWT_SECRET?: string;
  JWT_JWKS_URL?: string;
  JWT_ISSUER?: string;
  JWT_AUDIENCE?: string;
  /** Verifies the provider's webhooks, and nothing else. */
  WEBHOOK_SECRET?: string;
  OPS_TOKEN?: string;
  ACCESS_TEAM_DOMAIN?: string;
  ACCESS_AUD?: string;
  ACCESS_CERTS_URL?: string;
  PROVIDER_URL?: string;
  PROVIDER_TOKEN?: string;
  EFI_BASE_URL?: string;
  EFI_CLIENT_ID?: string;
  EFI_CLIENT_SECRET?: string;
  EFI_PAYER_KEY?: string;
  EFI_WEBHOOK_HMAC?: string;
  EFI_WEBHOOK_IPS?: string;
  /** `[[mtls_certificates]]`: Efí's API requires the client certificate it issued. */
  EFI_CERT?: Fetcher;
  EVENTS_URL?: string;
  EVENTS_SECRET?: string;
  /** Where a transfer entering needs_review is POSTed, signed with OPS_ALERT_SECRET. */
  OPS_ALERT_URL?: string;
  OPS_ALERT_SECRET?: string;
  /** Signs the sandbox's webhooks; locally WEBHOOK_SECRET lists the same key so they verify. */
  SANDBOX_WEBHOOK_SECRET?: string;
}

interface Env extends Secrets {}

declare namespace Cloudflare {
  interface Env extends Secrets {}
}
