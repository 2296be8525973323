// The Worker variables of CONTRACT §1. Any of them set in the environment of `npm start`
// overrides both .dev.vars and wrangler.toml for that run.
export const contractVariableNames = [
  "DATABASE_URL",
  "JWT_SECRET",
  "JWT_JWKS_URL",
  "JWT_ISSUER",
  "JWT_AUDIENCE",
  "WEBHOOK_SECRET",
  "OPS_TOKEN",
  "ACCESS_TEAM_DOMAIN",
  "ACCESS_AUD",
  "ACCESS_CERTS_URL",
  "PROVIDER",
  "OPS_CREDIT_APPROVAL_ABOVE_CENTS",
  "PROVIDER_URL",
  "PROVIDER_TOKEN",
  "EFI_BASE_URL",
  "EFI_CLIENT_ID",
  "EFI_CLIENT_SECRET",
  "EFI_PAYER_KEY",
  "EFI_WEBHOOK_HMAC",
  "EFI_WEBHOOK_IPS",
  "EVENTS_URL",
  "EVENTS_SECRET",
  "PROVIDER_SEND_CONCURRENCY",
  "SANDBOX_PROVIDER",
  "SAGA_FIRST_CHECK_MS",
  "SAGA_MAX_CHECK_MS",
  "SAGA_DEADLINE_MS",
  "PROVIDER_TIMEOUT_MS",
  "PROVIDER_NOT_FOUND_GRACE_MS",
  "SANDBOX_CONFIRM_MS",
  "MAX_TRANSFER_CENTS",
  "DAILY_LIMIT_CENTS",
  "NIGHT_TRANSFER_LIMIT_CENTS",
  "NIGHT_TOTAL_LIMIT_CENTS",
  "VELOCITY_MAX_PER_10_MIN",
  "NEW_KEY_REVIEW_ABOVE_CENTS",
  "MAX_STREAMS_PER_ACCOUNT",
  "TRUSTED_RECIPIENT_DELAY_MS",
  "DEVICE_RULES",
  "NEW_DEVICE_TRANSFER_LIMIT_CENTS",
  "NEW_DEVICE_DAILY_LIMIT_CENTS",
  "DEVICE_REGISTRATION_DELAY_MS",
  "MAX_PENDING_SCHEDULED",
  "EVENTS_URL",
  "EVENTS_SECRET",
  "EVENTS_RETRY_FIRST_MS",
  // Not in the contract: the project's optional needs_review alert (docs/runbooks.md),
  // and the sandbox's own webhook key.
  "OPS_ALERT_URL",
  "OPS_ALERT_SECRET",
  "SANDBOX_WEBHOOK_SECRET",
] as const;

/** The contract variables present in `environment` (an empty value counts as set). */
export function contractOverrides(environment: NodeJS.ProcessEnv): Map<string, string> {
  const overrides = new Map<string, string>();
  for (const name of contractVariableNames) {
    const value = environment[name];
    if (value !== undefined) overrides.set(name, value);
  }
  return overrides;
}

/** `--var KEY:VALUE` arguments; wrangler splits on the first colon, so URLs survive intact. */
export function wranglerVarArgs(vars: ReadonlyMap<string, string>): string[] {
  return [...vars].flatMap(([name, value]) => ["--var", `${name}:${value}`]);
}
