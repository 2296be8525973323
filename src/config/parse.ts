// Every variable of CONTRACT §1, read once and bounded: either a frozen Config or the list of
// problems. The rules about the provider, auth and secrets apply with the sandbox off (the
// production configuration, CONTRACT §1 "Production configuration fails closed"); the bounds of
// numbers, OPS_TOKEN's length and EVENTS_SECRET's own key apply everywhere, so a mistake fails
// the same way on a laptop and in production.
import { firstWebhookSecret } from "../lib/webhook-signature.ts";
import type { SagaTimings } from "../saga/timings.ts";
import { checkDeployment } from "./deployment.ts";
import { type EventsConfig, readEventsConfig } from "./events.ts";
import { type ConfigProblem, isSet, Problems } from "./problems.ts";
import { type ProviderChoice, readProvider } from "./provider.ts";
import { type RuleSettings, readRuleSettings } from "./rule-settings.ts";
import { readSagaTimings } from "./saga-timings.ts";
import { checkSecretReuse } from "./secret-reuse.ts";
import { secretLengthProblem, secretProblem, webhookSecretProblem } from "./secrets.ts";
import { readTunable, type TunableName } from "./tunables.ts";
import { urlProblem } from "./urls.ts";

export interface Config {
  /** SANDBOX_PROVIDER=on: /sandbox/* answers and the production rules are off. */
  sandboxEnabled: boolean;
  provider: ProviderChoice;
  providerTimeoutMs: number;
  sandboxConfirmMs: number;
  sagaTimings: SagaTimings;
  rules: RuleSettings;
  /** Signs the sandbox's webhooks; null with the sandbox off. */
  sandboxWebhookSecret: string | null;
  /** Where needs_review alerts go and the key that signs them; null: logged only. */
  opsAlert: { url: string; secret: string } | null;
  /** Outbound events (CONTRACT §6): parsed here, so a bad one stops serving instead of throwing after a commit. */
  events: EventsConfig;
  /** PROVIDER_SEND_CONCURRENCY: sends in flight at the provider at once; 0 is no limit (no gate). */
  sendConcurrency: number;
  /** OPS_CREDIT_APPROVAL_ABOVE_CENTS (CONTRACT §5): a credit above this waits for a second operator. */
  creditApprovalAboveCents: number;
  /** MAX_STREAMS_PER_ACCOUNT: open GET /v1/transfers/:id/events streams per account. */
  streamsPerAccountMax: number;
  /** TRUSTED_RECIPIENT_DELAY_MS (CONTRACT §2): a trusted recipient is active this long after it was asked for. */
  trustedRecipientDelayMs: number;
  /** DEVICE_REGISTRATION_DELAY_MS: a device the client registers counts as registered this long after. */
  deviceRegistrationDelayMs: number;
}

export type ConfigResult = { ok: true; config: Readonly<Config> } | { ok: false; problems: readonly ConfigProblem[] };

export function parseConfig(env: Env): ConfigResult {
  const problems = new Problems();
  const sandboxEnabled = env.SANDBOX_PROVIDER === "on";
  const production = !sandboxEnabled;
  const providerTimeoutMs = problems.check(() => tunable(env, "PROVIDER_TIMEOUT_MS"));
  const sandboxConfirmMs = problems.check(() => tunable(env, "SANDBOX_CONFIRM_MS"));
  const sagaTimings = problems.check(() => readSagaTimings(env));
  const rules = problems.check(() => readRuleSettings(env));
  const events = problems.check(() => readEventsConfig(env));
  const sendConcurrency = problems.check(() => tunable(env, "PROVIDER_SEND_CONCURRENCY"));
  const creditApprovalAboveCents = problems.check(() => tunable(env, "OPS_CREDIT_APPROVAL_ABOVE_CENTS"));
  const streamsPerAccountMax = problems.check(() => tunable(env, "MAX_STREAMS_PER_ACCOUNT"));
  const trustedRecipientDelayMs = problems.check(() => tunable(env, "TRUSTED_RECIPIENT_DELAY_MS"));
  const deviceRegistrationDelayMs = problems.check(() => tunable(env, "DEVICE_REGISTRATION_DELAY_MS"));
  if (!isSet(env.DATABASE_URL)) problems.add("DATABASE_URL", "DATABASE_URL is unset");
  checkDeployment(env, sandboxEnabled, problems);
  const provider = readProvider(env, sandboxEnabled, problems);
  checkClientAuth(env, production, problems);
  checkOperatorAuth(env, production, problems);
  checkWebhookSecrets(env, provider, production, problems);
  checkSecretReuse(env, production, problems);
  const opsAlert = readOpsAlert(env, production, problems);
  const sandboxWebhookSecret = sandboxEnabled ? sandboxSigningKey(env) : null;
  if (sandboxEnabled && sandboxWebhookSecret === null) {
    problems.add("SANDBOX_WEBHOOK_SECRET", "SANDBOX_WEBHOOK_SECRET and WEBHOOK_SECRET are unset: the sandbox cannot sign its webhooks");
  }

  if (
    problems.list.length > 0 ||
    provider === null ||
    providerTimeoutMs === null ||
    sandboxConfirmMs === null ||
    sagaTimings === null ||
    rules === null ||
    events === null ||
    sendConcurrency === null ||
    creditApprovalAboveCents === null ||
    streamsPerAccountMax === null ||
    trustedRecipientDelayMs === null ||
    deviceRegistrationDelayMs === null
  ) {
    return { ok: false, problems: Object.freeze(problems.list.map((p) => Object.freeze(p))) };
  }
  const config: Config = {
    sandboxEnabled,
    provider,
    providerTimeoutMs,
    sandboxConfirmMs,
    sagaTimings,
    rules,
    sandboxWebhookSecret,
    opsAlert,
    events,
    sendConcurrency,
    creditApprovalAboveCents,
    streamsPerAccountMax,
    trustedRecipientDelayMs,
    deviceRegistrationDelayMs,
  };
  return { ok: true, config: deepFreeze(config) };
}

/** Env names every tunable (src/config/tunables-env.d.ts): the Pick does not compile otherwise. */
function tunable(env: Pick<Env, TunableName>, name: TunableName): number {
  return readTunable(name, env[name]);
}

function checkClientAuth(env: Env, production: boolean, problems: Problems): void {
  if (isSet(env.JWT_JWKS_URL)) {
    problems.add("JWT_JWKS_URL", urlProblem("JWT_JWKS_URL", env.JWT_JWKS_URL, production));
    // A key set can be shared (Firebase's is): without both, another audience's token gets in.
    if (production && (!isSet(env.JWT_ISSUER) || !isSet(env.JWT_AUDIENCE))) {
      problems.add("JWT_JWKS_URL", "JWT_JWKS_URL is set without both JWT_ISSUER and JWT_AUDIENCE");
    }
    return;
  }
  if (!production) return;
  if (!isSet(env.JWT_SECRET)) problems.add("JWT_SECRET", "no client auth: set JWT_JWKS_URL (with JWT_ISSUER, JWT_AUDIENCE) or JWT_SECRET");
  else problems.add("JWT_SECRET", secretProblem("JWT_SECRET", env.JWT_SECRET));
}

function checkOperatorAuth(env: Env, production: boolean, problems: Problems): void {
  const teamDomain = isSet(env.ACCESS_TEAM_DOMAIN);
  if (teamDomain) problems.add("ACCESS_TEAM_DOMAIN", urlProblem("ACCESS_TEAM_DOMAIN", env.ACCESS_TEAM_DOMAIN ?? "", production));
  if (isSet(env.ACCESS_CERTS_URL)) problems.add("ACCESS_CERTS_URL", urlProblem("ACCESS_CERTS_URL", env.ACCESS_CERTS_URL, production));
  if (teamDomain !== isSet(env.ACCESS_AUD)) problems.add("ACCESS_AUD", "ACCESS_TEAM_DOMAIN and ACCESS_AUD are set together or not at all");
  // The contract's 32 characters hold everywhere (the example value is only refused in production).
  if (isSet(env.OPS_TOKEN)) {
    problems.add("OPS_TOKEN", production ? secretProblem("OPS_TOKEN", env.OPS_TOKEN) : secretLengthProblem("OPS_TOKEN", env.OPS_TOKEN));
  } else if (production && !teamDomain) problems.add("OPS_TOKEN", "no operator auth: set ACCESS_TEAM_DOMAIN and ACCESS_AUD, or OPS_TOKEN");
}

function checkWebhookSecrets(env: Env, provider: ProviderChoice | null, production: boolean, problems: Problems): void {
  if (isSet(env.WEBHOOK_SECRET)) problems.add("WEBHOOK_SECRET", webhookSecretProblem("WEBHOOK_SECRET", env.WEBHOOK_SECRET, production));
  else if (production && provider?.kind === "http") {
    problems.add("WEBHOOK_SECRET", "WEBHOOK_SECRET is unset: the provider's webhooks cannot be verified");
  }
  if (isSet(env.SANDBOX_WEBHOOK_SECRET)) {
    problems.add("SANDBOX_WEBHOOK_SECRET", webhookSecretProblem("SANDBOX_WEBHOOK_SECRET", env.SANDBOX_WEBHOOK_SECRET, false));
  }
  // EVENTS_URL, and EVENTS_SECRET's form when it is used, are readEventsConfig's; these are the production rules.
  if (isSet(env.EVENTS_SECRET)) problems.add("EVENTS_SECRET", webhookSecretProblem("EVENTS_SECRET", env.EVENTS_SECRET, production));
}

/**
 * The key the sandbox signs its webhooks with: SANDBOX_WEBHOOK_SECRET when set, else the first
 * of WEBHOOK_SECRET's keys, so a WEBHOOK_SECRET set for a run is one the Worker then accepts.
 */
function sandboxSigningKey(env: Env): string | null {
  if (isSet(env.SANDBOX_WEBHOOK_SECRET)) return env.SANDBOX_WEBHOOK_SECRET.trim();
  return isSet(env.WEBHOOK_SECRET) ? firstWebhookSecret(env.WEBHOOK_SECRET.trim()) : null;
}

function readOpsAlert(env: Env, production: boolean, problems: Problems): Config["opsAlert"] {
  if (!isSet(env.OPS_ALERT_URL)) return null;
  const before = problems.list.length;
  problems.add("OPS_ALERT_URL", urlProblem("OPS_ALERT_URL", env.OPS_ALERT_URL, production));
  if (!isSet(env.OPS_ALERT_SECRET))
    problems.add("OPS_ALERT_SECRET", "OPS_ALERT_URL is set without OPS_ALERT_SECRET: alerts cannot be signed");
  else problems.add("OPS_ALERT_SECRET", webhookSecretProblem("OPS_ALERT_SECRET", env.OPS_ALERT_SECRET, production));
  if (problems.list.length > before || !isSet(env.OPS_ALERT_SECRET)) return null;
  return { url: env.OPS_ALERT_URL.trim(), secret: env.OPS_ALERT_SECRET.trim().split(/\s+/)[0] ?? "" };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
