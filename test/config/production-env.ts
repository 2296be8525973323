// A complete production configuration (the sandbox off, PROVIDER=http) over the test's own
// database bindings, and the misconfigurations CONTRACT §1 says must stop the Worker serving.
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";

const webhookKey = `whsec_${btoa("production-webhook-key-0123456789abcdef")}`;
const otherWebhookKey = `whsec_${btoa("production-webhook-key-next-0123456789")}`;
/** A key of its own for outbound events, as production has. */
export const eventsKey = `whsec_${btoa("production-events-key-0123456789abcdef")}`;
/** OPS_ALERT_SECRET's value in .dev.vars.example. */
const exampleAlertKey = "whsec_bG9jYWwtZGV2LW9wcy1hbGVydC1zZWNyZXQtMDEyMzQ1Njc4OQ==";

/** The test bindings with the local ones removed and production's set: a Worker that serves. */
export function productionEnv(overrides: Partial<Env> = {}): Env {
  return {
    ...env,
    SANDBOX_PROVIDER: undefined,
    SANDBOX_WEBHOOK_SECRET: undefined,
    PROVIDER: "http",
    PROVIDER_URL: "https://psp.example/v2/",
    PROVIDER_TOKEN: "psp-live-token-0123456789",
    JWT_SECRET: "production-jwt-secret-0123456789abcdef",
    WEBHOOK_SECRET: webhookKey,
    OPS_TOKEN: "production-ops-token-0123456789abcdef",
    OPS_ALERT_SECRET: undefined,
    // The tests' stand-in Access serves its keys over http: production sets its own, or none.
    ACCESS_TEAM_DOMAIN: undefined,
    ACCESS_AUD: undefined,
    ACCESS_CERTS_URL: undefined,
    EFI_WEBHOOK_HMAC: undefined,
    EFI_WEBHOOK_IPS: undefined,
    ...overrides,
  };
}

/** A complete Efí configuration; the certificate binding is any Fetcher (the loopback one here). */
export function efiEnv(overrides: Partial<Env> = {}): Env {
  return productionEnv({
    PROVIDER: "efi",
    PROVIDER_URL: undefined,
    PROVIDER_TOKEN: undefined,
    EFI_BASE_URL: "https://pix.api.efipay.com.br",
    EFI_CLIENT_ID: "Client_Id_0123456789",
    EFI_CLIENT_SECRET: "Client_Secret_0123456789",
    EFI_PAYER_KEY: "payer@fintech.example",
    EFI_WEBHOOK_HMAC: "efi-webhook-hmac-0123456789abcdef0123",
    EFI_WEBHOOK_IPS: "34.193.116.226",
    EFI_CERT: exports.default,
    ...overrides,
  });
}

/** Outbound events on, under the key `secret`: the rows on events differ in that key or one more variable. */
function withEvents(secret: string, overrides: Partial<Env> = {}): Env {
  return productionEnv({ EVENTS_URL: "https://events.example/in", EVENTS_SECRET: secret, ...overrides });
}

/** Operator alerts on, under the key `secret`: the rows on alerts differ only in that key. */
function withAlerts(secret: string): Env {
  return productionEnv({ OPS_ALERT_URL: "https://alerts.example/in", OPS_ALERT_SECRET: secret });
}

export interface Misconfiguration {
  name: string;
  env: Env;
  /** The variable /healthz must name. */
  variable: string;
}

export const misconfigurations: Misconfiguration[] = [
  { name: "PROVIDER unset", env: productionEnv({ PROVIDER: undefined }), variable: "PROVIDER" },
  // A Central Bank rule is switched by on or off only: a typo never turns it off.
  { name: "DEVICE_RULES neither on nor off", env: productionEnv({ DEVICE_RULES: "of" }), variable: "DEVICE_RULES" },
  { name: "PROVIDER=sandbox with the sandbox off", env: productionEnv({ PROVIDER: "sandbox" }), variable: "PROVIDER" },
  { name: "PROVIDER not a known adapter", env: productionEnv({ PROVIDER: "pagseguro" }), variable: "PROVIDER" },
  { name: "http without PROVIDER_URL", env: productionEnv({ PROVIDER_URL: undefined }), variable: "PROVIDER_URL" },
  { name: "http without PROVIDER_TOKEN", env: productionEnv({ PROVIDER_TOKEN: "" }), variable: "PROVIDER_TOKEN" },
  { name: "a short PROVIDER_TOKEN", env: productionEnv({ PROVIDER_TOKEN: "tok-5" }), variable: "PROVIDER_TOKEN" },
  { name: "a plain-http PROVIDER_URL", env: productionEnv({ PROVIDER_URL: "http://psp.example/v2/" }), variable: "PROVIDER_URL" },
  { name: "efi without EFI_CLIENT_SECRET", env: efiEnv({ EFI_CLIENT_SECRET: undefined }), variable: "EFI_CLIENT_SECRET" },
  { name: "efi without EFI_PAYER_KEY", env: efiEnv({ EFI_PAYER_KEY: undefined }), variable: "EFI_PAYER_KEY" },
  { name: "efi without the EFI_CERT binding", env: efiEnv({ EFI_CERT: undefined }), variable: "EFI_CERT" },
  { name: "efi with a plain-http EFI_BASE_URL", env: efiEnv({ EFI_BASE_URL: "http://efi.example" }), variable: "EFI_BASE_URL" },
  { name: "a short EFI_WEBHOOK_HMAC", env: efiEnv({ EFI_WEBHOOK_HMAC: "hmac" }), variable: "EFI_WEBHOOK_HMAC" },
  // Empty is "no source-IP check", local only (CONTRACT §1).
  { name: "efi without EFI_WEBHOOK_IPS", env: efiEnv({ EFI_WEBHOOK_IPS: " , " }), variable: "EFI_WEBHOOK_IPS" },
  {
    name: "JWT_JWKS_URL without JWT_AUDIENCE",
    env: productionEnv({ JWT_JWKS_URL: "https://auth.example/jwks.json", JWT_ISSUER: "https://auth.example/" }),
    variable: "JWT_JWKS_URL",
  },
  {
    name: "a plain-http JWT_JWKS_URL",
    env: productionEnv({ JWT_JWKS_URL: "http://auth.example/jwks.json", JWT_ISSUER: "https://auth.example/", JWT_AUDIENCE: "pix" }),
    variable: "JWT_JWKS_URL",
  },
  {
    name: "JWT_JWKS_URL without JWT_ISSUER",
    env: productionEnv({ JWT_JWKS_URL: "https://auth.example/jwks.json", JWT_AUDIENCE: "pix" }),
    variable: "JWT_JWKS_URL",
  },
  { name: "no client auth at all", env: productionEnv({ JWT_SECRET: undefined }), variable: "JWT_SECRET" },
  {
    name: "a plain-http ACCESS_TEAM_DOMAIN",
    env: productionEnv({ ACCESS_TEAM_DOMAIN: "http://team.cloudflareaccess.com", ACCESS_AUD: "aud-tag" }),
    variable: "ACCESS_TEAM_DOMAIN",
  },
  {
    name: "ACCESS_TEAM_DOMAIN without ACCESS_AUD",
    env: productionEnv({ ACCESS_TEAM_DOMAIN: "https://team.cloudflareaccess.com" }),
    variable: "ACCESS_AUD",
  },
  {
    name: "a plain-http ACCESS_CERTS_URL",
    env: productionEnv({
      ACCESS_TEAM_DOMAIN: "https://team.cloudflareaccess.com",
      ACCESS_AUD: "aud-tag",
      ACCESS_CERTS_URL: "http://team.cloudflareaccess.com/cdn-cgi/access/certs",
    }),
    variable: "ACCESS_CERTS_URL",
  },
  { name: "a plain-http EVENTS_URL", env: withEvents(eventsKey, { EVENTS_URL: "http://events.example/in" }), variable: "EVENTS_URL" },
  {
    name: "EVENTS_SECRET that is a WEBHOOK_SECRET key (during a rotation)",
    env: withEvents(webhookKey, { WEBHOOK_SECRET: `${otherWebhookKey} ${webhookKey}` }),
    variable: "EVENTS_SECRET",
  },
  { name: "EVENTS_SECRET from .dev.vars.example", env: withEvents(exampleAlertKey), variable: "EVENTS_SECRET" },
  { name: "an EVENTS_SECRET key under 24 bytes", env: withEvents(`whsec_${btoa("events-key-0123456789")}`), variable: "EVENTS_SECRET" },
  {
    name: "an EVENTS_RETRY_FIRST_MS that is not an integer",
    env: withEvents(eventsKey, { EVENTS_RETRY_FIRST_MS: "10s" }),
    variable: "EVENTS_RETRY_FIRST_MS",
  },
  { name: "OPS_ALERT_SECRET that is a WEBHOOK_SECRET key", env: withAlerts(webhookKey), variable: "OPS_ALERT_SECRET" },
  { name: "OPS_ALERT_SECRET from .dev.vars.example", env: withAlerts(exampleAlertKey), variable: "OPS_ALERT_SECRET" },
  {
    name: "an OPS_ALERT_SECRET key under 24 bytes",
    env: withAlerts(`whsec_${btoa("alert-key-0123456789")}`),
    variable: "OPS_ALERT_SECRET",
  },
  {
    name: "SANDBOX_WEBHOOK_SECRET that is a WEBHOOK_SECRET key with the sandbox off",
    env: productionEnv({ SANDBOX_WEBHOOK_SECRET: webhookKey }),
    variable: "SANDBOX_WEBHOOK_SECRET",
  },
  { name: "OPS_TOKEN of 31 characters", env: productionEnv({ OPS_TOKEN: "x".repeat(31) }), variable: "OPS_TOKEN" },
  {
    name: "OPS_TOKEN from .dev.vars.example",
    env: productionEnv({ OPS_TOKEN: "local-ops-token-change-me-0123456789abcdef" }),
    variable: "OPS_TOKEN",
  },
  { name: "no operator auth at all", env: productionEnv({ OPS_TOKEN: undefined }), variable: "OPS_TOKEN" },
  {
    name: "JWT_SECRET from .dev.vars.example",
    env: productionEnv({ JWT_SECRET: "local-dev-jwt-secret-change-me-0123456789abcdef" }),
    variable: "JWT_SECRET",
  },
  { name: "a short JWT_SECRET", env: productionEnv({ JWT_SECRET: "x".repeat(31) }), variable: "JWT_SECRET" },
  {
    name: "WEBHOOK_SECRET from .dev.vars.example",
    env: productionEnv({ WEBHOOK_SECRET: "whsec_bG9jYWwtZGV2LXdlYmhvb2stc2VjcmV0LTAxMjM0NTY3ODk=" }),
    variable: "WEBHOOK_SECRET",
  },
  {
    name: "a WEBHOOK_SECRET key under 24 bytes",
    env: productionEnv({ WEBHOOK_SECRET: `whsec_${btoa("short-key")}` }),
    variable: "WEBHOOK_SECRET",
  },
  { name: "http without WEBHOOK_SECRET", env: productionEnv({ WEBHOOK_SECRET: undefined }), variable: "WEBHOOK_SECRET" },
  {
    name: "OPS_ALERT_URL without OPS_ALERT_SECRET",
    env: productionEnv({ OPS_ALERT_URL: "https://alerts.example/in" }),
    variable: "OPS_ALERT_SECRET",
  },
  { name: "a saga timing that is not an integer", env: productionEnv({ SAGA_DEADLINE_MS: "2h" }), variable: "SAGA_DEADLINE_MS" },
  // The production marker (wrangler.toml's top-level DEPLOYMENT): no test seam survives it.
  { name: "the sandbox on in the production deployment", env: { ...env, DEPLOYMENT: "production" }, variable: "SANDBOX_PROVIDER" },
  {
    name: "a local database relay in the production deployment",
    env: productionEnv({ DEPLOYMENT: "production" }),
    variable: "NEON_WS_PROXY",
  },
  {
    name: "a database that is not Neon's in the production deployment",
    env: productionEnv({ DEPLOYMENT: "production", NEON_WS_PROXY: undefined }),
    variable: "DATABASE_URL",
  },
  {
    name: "a local database relay with the sandbox off and no deployment marked local",
    env: productionEnv({ DEPLOYMENT: undefined }),
    variable: "NEON_WS_PROXY",
  },
];
