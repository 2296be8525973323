// Provider and sandbox settings from the Worker's variables (CONTRACT §1), bounded so a typo
// fails loudly at the first use instead of becoming, say, a zero-length timeout.
import { readIntegerVariable } from "../config.ts";
import type { Env } from "../env.ts";

export class ProviderConfigError extends Error {
  override readonly name = "ProviderConfigError";
}

/** A provider call longer than two minutes would outlive the Worker request waiting on it. */
const providerTimeoutMsMax = 120_000;
/** A sandbox payment that takes more than a day to settle is a configuration mistake. */
const sandboxConfirmMsMax = 86_400_000;

export function providerTimeoutMs(env: Pick<Env, "PROVIDER_TIMEOUT_MS">): number {
  return readIntegerVariable("PROVIDER_TIMEOUT_MS", env.PROVIDER_TIMEOUT_MS, 10_000, 1, providerTimeoutMsMax);
}

export function sandboxConfirmMs(env: Pick<Env, "SANDBOX_CONFIRM_MS">): number {
  return readIntegerVariable("SANDBOX_CONFIRM_MS", env.SANDBOX_CONFIRM_MS, 1_000, 0, sandboxConfirmMsMax);
}

export function sandboxEnabled(env: Pick<Env, "SANDBOX_PROVIDER">): boolean {
  return env.SANDBOX_PROVIDER === "on";
}
