// The configuration, parsed once per isolate: Workers hand every request and every object the
// same `env`, so a WeakMap keyed by it parses on first use and answers from memory after. A
// bad configuration is logged once, loudly, and answered the same way by every entry point.

import { logEvent } from "../lib/log.ts";
import { type Config, type ConfigResult, parseConfig } from "./parse.ts";

const parsed = new WeakMap<object, ConfigResult>();

export function configOf(env: Env): ConfigResult {
  const known = parsed.get(env);
  if (known !== undefined) return known;
  const result = parseConfig(env);
  parsed.set(env, result);
  if (!result.ok) logEvent("configuration_invalid", { problems: result.problems }, "error");
  return result;
}

export class MisconfiguredError extends Error {
  override readonly name = "MisconfiguredError";
}

/** For code that only runs behind the configuration guard: a bad configuration is a bug here. */
export function configuredOrThrow(env: Env): Readonly<Config> {
  const result = configOf(env);
  if (!result.ok) throw new MisconfiguredError(`configuration: ${result.problems.map((p) => p.message).join("; ")}`);
  return result.config;
}
