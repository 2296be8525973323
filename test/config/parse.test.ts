// The configuration parser (src/config/): one frozen Config or the list of problems, each
// naming its variable; the production rules with the sandbox off, the bounds everywhere.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import devVarsExample from "../../.dev.vars.example?raw";
import { configOf } from "../../src/config/isolate.ts";
import { parseConfig } from "../../src/config/parse.ts";
import { exampleSecretValues } from "../../src/config/secrets.ts";
import { efiEnv, eventsKey, misconfigurations, productionEnv } from "./production-env.ts";

describe("parseConfig", () => {
  it("accepts the tests' local bindings: the sandbox on, PROVIDER=sandbox, short timings", () => {
    const result = parseConfig(env);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.sandboxEnabled).toBe(true);
    expect(result.config.provider.kind).toBe("sandbox");
    expect(result.config.sagaTimings.deadlineMs).toBe(4000);
  });

  it("accepts a complete production configuration, http or efi, and freezes it all the way down", () => {
    const http = parseConfig(productionEnv());
    expect(http).toMatchObject({ ok: true, config: { sandboxEnabled: false, provider: { kind: "http", url: "https://psp.example/v2/" } } });
    const efi = parseConfig(efiEnv());
    expect(efi).toMatchObject({ ok: true, config: { provider: { kind: "efi", webhookIps: ["34.193.116.226"] } } });
    if (!http.ok) return;
    expect(Object.isFrozen(http.config)).toBe(true);
    expect(Object.isFrozen(http.config.rules)).toBe(true);
    expect(Object.isFrozen(http.config.provider)).toBe(true);
  });

  it("reads the device rules: on by default with the sandbox off, off by default with it on, and their caps", () => {
    const unset = { DEVICE_RULES: "" };
    expect(parseConfig(productionEnv(unset))).toMatchObject({ ok: true, config: { rules: { device_rules: true } } });
    expect(parseConfig({ ...env, ...unset })).toMatchObject({ ok: true, config: { rules: { device_rules: false } } });
    expect(parseConfig({ ...env, DEVICE_RULES: "on" })).toMatchObject({
      ok: true,
      config: {
        rules: { device_rules: true, new_device_transfer_cents: 20_000, new_device_daily_cents: 100_000 },
        deviceRegistrationDelayMs: 86_400_000,
      },
    });
    expect(parseConfig({ ...env, NEW_DEVICE_TRANSFER_LIMIT_CENTS: "0" })).toMatchObject({
      ok: false,
      problems: [{ variable: "NEW_DEVICE_TRANSFER_LIMIT_CENTS" }],
    });
    expect(parseConfig({ ...env, DEVICE_REGISTRATION_DELAY_MS: "1d" })).toMatchObject({
      ok: false,
      problems: [{ variable: "DEVICE_REGISTRATION_DELAY_MS" }],
    });
  });

  it("keeps HS256 allowed in production, and JWKS with both issuer and audience", () => {
    expect(parseConfig(productionEnv()).ok).toBe(true);
    const jwks = { JWT_JWKS_URL: "https://auth.example/jwks.json", JWT_ISSUER: "https://auth.example/", JWT_AUDIENCE: "pix" };
    expect(parseConfig(productionEnv({ ...jwks, JWT_SECRET: undefined })).ok).toBe(true);
  });

  it("accepts the local database (NEON_WS_PROXY) with the sandbox off: production can be tried on one machine", () => {
    expect(env.NEON_WS_PROXY).toBeTruthy();
    // The local environment of wrangler.toml is what makes it local.
    expect(env.DEPLOYMENT).toBe("local");
    expect(parseConfig(productionEnv({ NEON_WS_PROXY: env.NEON_WS_PROXY })).ok).toBe(true);
  });

  it("accepts Neon's own endpoint, with no relay, in the production deployment", () => {
    const neon = "postgresql://app:secret@ep-cool-river-123456-pooler.sa-east-1.aws.neon.tech/pix?sslmode=require";
    expect(parseConfig(productionEnv({ DEPLOYMENT: "production", NEON_WS_PROXY: undefined, DATABASE_URL: neon })).ok).toBe(true);
  });

  it.each(misconfigurations)("refuses $name, naming $variable and never its value", ({ env: bad, variable }) => {
    const result = parseConfig(bad);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.variable)).toContain(variable);
    const secrets = [
      bad.OPS_TOKEN,
      bad.JWT_SECRET,
      bad.WEBHOOK_SECRET,
      bad.PROVIDER_TOKEN,
      bad.EFI_WEBHOOK_HMAC,
      bad.EVENTS_SECRET,
      bad.OPS_ALERT_SECRET,
    ];
    for (const secret of secrets) {
      if (secret) expect(JSON.stringify(result.problems)).not.toContain(secret);
    }
  });

  it("never falls back to the sandbox locally either: PROVIDER unset is a problem with the sandbox on", () => {
    const result = parseConfig({ ...env, PROVIDER: undefined });
    expect(result).toMatchObject({ ok: false, problems: [{ variable: "PROVIDER" }] });
  });

  it("signs the sandbox's webhooks with WEBHOOK_SECRET's first key unless SANDBOX_WEBHOOK_SECRET is set", () => {
    const first = `whsec_${btoa("sandbox-first-key-0123456789abcdef")}`;
    const second = `whsec_${btoa("sandbox-second-key-0123456789abcde")}`;
    expect(parseConfig({ ...env, SANDBOX_WEBHOOK_SECRET: undefined, WEBHOOK_SECRET: `${first} ${second}` })).toMatchObject({
      ok: true,
      config: { sandboxWebhookSecret: first },
    });
    expect(parseConfig({ ...env, SANDBOX_WEBHOOK_SECRET: second, WEBHOOK_SECRET: `${first} ${second}` })).toMatchObject({
      ok: true,
      config: { sandboxWebhookSecret: second },
    });
    expect(parseConfig({ ...env, SANDBOX_WEBHOOK_SECRET: undefined, WEBHOOK_SECRET: undefined })).toMatchObject({
      ok: false,
      problems: [{ variable: "SANDBOX_WEBHOOK_SECRET" }],
    });
  });

  it("applies the secret rules only with the sandbox off: local runs keep their example values", () => {
    const example = { OPS_TOKEN: "local-ops-token-change-me-0123456789abcdef", JWT_SECRET: "short" };
    expect(parseConfig({ ...env, ...example, PROVIDER_URL: "http://stub.local" }).ok).toBe(true);
  });

  it("refuses an OPS_TOKEN under 32 characters with the sandbox on too (CONTRACT §1)", () => {
    expect(parseConfig({ ...env, OPS_TOKEN: "x".repeat(31) })).toMatchObject({ ok: false, problems: [{ variable: "OPS_TOKEN" }] });
    expect(parseConfig({ ...env, OPS_TOKEN: "x".repeat(32) }).ok).toBe(true);
    expect(env.OPS_TOKEN.length).toBeGreaterThanOrEqual(32);
  });

  it("parses outbound events with the rest, so a Worker that serves can always deliver them", () => {
    const result = parseConfig(productionEnv({ EVENTS_URL: "https://events.example/in", EVENTS_SECRET: eventsKey }));
    expect(result).toMatchObject({ ok: true, config: { events: { delivery: "on", url: "https://events.example/in", secret: eventsKey } } });
    expect(parseConfig(productionEnv())).toMatchObject({ ok: true, config: { events: { delivery: "off" } } });
  });

  it("refuses an EVENTS_SECRET that is a WEBHOOK_SECRET key with the sandbox on too; locally the alerts and the sandbox may share it", () => {
    const reused = parseConfig({ ...env, EVENTS_URL: "http://127.0.0.1:9/in", EVENTS_SECRET: env.WEBHOOK_SECRET });
    expect(reused).toMatchObject({ ok: false, problems: [{ variable: "EVENTS_SECRET" }] });
    expect(env.SANDBOX_WEBHOOK_SECRET).toBe(env.WEBHOOK_SECRET);
    expect(parseConfig({ ...env, OPS_ALERT_SECRET: env.WEBHOOK_SECRET }).ok).toBe(true);
  });

  it("lists every problem at once, not only the first", () => {
    const result = parseConfig(productionEnv({ PROVIDER: undefined, OPS_TOKEN: "short", SAGA_FIRST_CHECK_MS: "soon" }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.variable).sort()).toEqual(["OPS_TOKEN", "PROVIDER", "SAGA_FIRST_CHECK_MS"]);
  });
});

describe("the variables read outside the routes' hot path", () => {
  const eventsSecret = `whsec_${btoa("events-key-0123456789abcdefghij")}`;
  it.each([
    { name: "PROVIDER_SEND_CONCURRENCY above 1000", env: { PROVIDER_SEND_CONCURRENCY: "10000" }, variable: "PROVIDER_SEND_CONCURRENCY" },
    {
      name: "an OPS_CREDIT_APPROVAL_ABOVE_CENTS in exponent form",
      env: { OPS_CREDIT_APPROVAL_ABOVE_CENTS: "1e6" },
      variable: "OPS_CREDIT_APPROVAL_ABOVE_CENTS",
    },
    {
      name: "an EVENTS_RETRY_FIRST_MS with a unit",
      env: { EVENTS_URL: "https://events.example/in", EVENTS_SECRET: eventsSecret, EVENTS_RETRY_FIRST_MS: "10s" },
      variable: "EVENTS_RETRY_FIRST_MS",
    },
  ])("refuses $name at startup, naming $variable", ({ env: bad, variable }) => {
    expect(parseConfig(productionEnv(bad))).toMatchObject({ ok: false, problems: [{ variable }] });
  });

  it("refuses an EVENTS_SECRET that is also a WEBHOOK_SECRET, once", () => {
    const production = productionEnv();
    const result = parseConfig({ ...production, EVENTS_URL: "https://events.example/in", EVENTS_SECRET: production.WEBHOOK_SECRET });
    expect(result).toMatchObject({ ok: false, problems: [{ variable: "EVENTS_SECRET" }] });
  });

  it("holds them in the frozen Config, parsed", () => {
    const result = parseConfig(productionEnv({ PROVIDER_SEND_CONCURRENCY: "1", OPS_CREDIT_APPROVAL_ABOVE_CENTS: "250000" }));
    expect(result).toMatchObject({
      ok: true,
      config: { sendConcurrency: 1, creditApprovalAboveCents: 250_000, events: { delivery: "off" } },
    });
  });
});

describe("configOf", () => {
  it("parses an env once and answers the same frozen object after", () => {
    const once = productionEnv();
    expect(configOf(once)).toBe(configOf(once));
  });
});

describe("exampleSecretValues", () => {
  it("holds every secret value of .dev.vars.example, so a copied one never serves in production", () => {
    const values = [...devVarsExample.matchAll(/^[A-Z_]+="([^"]*)"$/gm)].map((m) => m[1]);
    expect(values.length).toBeGreaterThanOrEqual(4);
    for (const value of values) expect(exampleSecretValues).toContain(value);
  });

  it("has an OPS_TOKEN that a local run accepts: at least 32 characters", () => {
    const opsToken = /^OPS_TOKEN="([^"]*)"$/m.exec(devVarsExample)?.[1];
    expect(opsToken?.length).toBeGreaterThanOrEqual(32);
    expect(parseConfig({ ...env, OPS_TOKEN: opsToken }).ok).toBe(true);
  });
});
