// Secrets have one job each (CONTRACT §1, §6): WEBHOOK_SECRET only verifies the provider, so a
// key that also signs events, alerts or the sandbox's webhooks would let whoever holds one of
// those forge the provider's webhooks. Compared key by key, since each variable may hold a list.
import { isSet, type Problems } from "./problems.ts";

/** The variables whose keys must never be a WEBHOOK_SECRET key, and whether the rule holds locally too. */
const signingSecrets = [
  // Events go to the fintech's own backend: never the PSP's key, on a laptop either.
  { variable: "EVENTS_SECRET", everywhere: true },
  // Locally the sandbox is the provider and signs with WEBHOOK_SECRET's key by design
  // (.dev.vars.example), and local alerts may share it; in production each has its own.
  { variable: "OPS_ALERT_SECRET", everywhere: false },
  { variable: "SANDBOX_WEBHOOK_SECRET", everywhere: false },
] as const;

export function checkSecretReuse(env: Env, production: boolean, problems: Problems): void {
  const inbound = new Set(keysOf(env.WEBHOOK_SECRET));
  if (inbound.size === 0) return;
  for (const { variable, everywhere } of signingSecrets) {
    if (!everywhere && !production) continue;
    if (keysOf(env[variable]).some((key) => inbound.has(key))) problems.add(variable, `${variable} must not be a WEBHOOK_SECRET key`);
  }
}

function keysOf(raw: string | undefined): string[] {
  return isSet(raw) ? raw.trim().split(/\s+/) : [];
}
