// The sandbox under `npm start` signs its webhooks with a key the Worker accepts, whatever
// WEBHOOK_SECRET is set to for the run (CONTRACT §1 lets the environment set it, and black-box
// suites do). Not set explicitly, SANDBOX_WEBHOOK_SECRET is WEBHOOK_SECRET's first key (the
// Worker falls back to the same, src/config/parse.ts); set explicitly to a key WEBHOOK_SECRET
// does not list, `npm start` stops and says so, rather than serve a silent 401 to every
// sandbox webhook.
import { exampleSecretValues } from "../../src/config/secrets.ts";

export type SandboxKeyPlan = { ok: true; vars: Map<string, string> } | { ok: false; message: string };

/**
 * `overrides`: the variables set in npm start's environment; `devVars`: .dev.vars. A
 * .dev.vars value that is one .dev.vars.example has held was copied, not chosen: not explicit.
 */
export function planSandboxWebhookKey(overrides: ReadonlyMap<string, string>, devVars: ReadonlyMap<string, string>): SandboxKeyPlan {
  const effective = (name: string): string => (overrides.get(name) ?? devVars.get(name) ?? "").trim();
  // wrangler.toml's [env.local] turns the sandbox on; only an override turns it off.
  if ((overrides.get("SANDBOX_PROVIDER") ?? devVars.get("SANDBOX_PROVIDER") ?? "on").trim() !== "on") return { ok: true, vars: new Map() };
  const webhookKeys = effective("WEBHOOK_SECRET")
    .split(/\s+/)
    .filter((key) => key !== "");
  const fromEnvironment = overrides.get("SANDBOX_WEBHOOK_SECRET")?.trim() ?? "";
  const fromDevVars = devVars.get("SANDBOX_WEBHOOK_SECRET")?.trim() ?? "";
  const explicit = fromEnvironment !== "" ? fromEnvironment : exampleSecretValues.includes(fromDevVars) ? "" : fromDevVars;
  if (explicit === "") {
    const first = webhookKeys[0];
    // Without WEBHOOK_SECRET the Worker says what is missing itself (/healthz).
    return { ok: true, vars: first === undefined ? new Map() : new Map([["SANDBOX_WEBHOOK_SECRET", first]]) };
  }
  if (webhookKeys.includes(explicit)) return { ok: true, vars: new Map() };
  const where = fromEnvironment !== "" ? "the environment" : ".dev.vars";
  return {
    ok: false,
    message:
      `SANDBOX_WEBHOOK_SECRET (from ${where}) is not one of WEBHOOK_SECRET's keys: the Worker would refuse every sandbox ` +
      "webhook (401). Unset SANDBOX_WEBHOOK_SECRET (the sandbox then signs with WEBHOOK_SECRET's first key) or add its key to WEBHOOK_SECRET.",
  };
}
