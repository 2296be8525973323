// Operators as people: /ops/* with a Cloudflare Access assertion (CONTRACT §5), verified against
// keys served by a test-controlled certs endpoint, and the per-IP throttle on failed attempts.
import { env } from "cloudflare:test";
import { Hono } from "hono";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { AccessVerifier } from "../../src/auth/access.ts";
import type { JwksFetch } from "../../src/auth/jwks.ts";
import { type OpsActorVariables, type OpsAuthBindings, opsAuth } from "../../src/http/auth/ops-auth.ts";
import { opsAuthRateLimit } from "../../src/web/auth-throttle.ts";
import { installProblemHandlers } from "../../src/web/problem.ts";
import { rateLimitConfig } from "../api/wrangler-config.ts";
import { asymmetricToken, generateSigningKey, hs256Token, nowSeconds, type SigningKey } from "./jwt-fixtures.ts";

const team = "https://acme.cloudflareaccess.com";
const aud = "access-app-aud-tag";
const bindings: OpsAuthBindings = { OPS_TOKEN: env.OPS_TOKEN, ACCESS_TEAM_DOMAIN: team, ACCESS_AUD: aud };

let accessKey: SigningKey;
let ecKey: SigningKey;

beforeAll(async () => {
  [accessKey, ecKey] = await Promise.all([generateSigningKey("RS256", "access-1"), generateSigningKey("ES256", "access-ec")]);
});

/** Access's claims for ana, overridable. */
const claims = (overrides: Record<string, unknown> = {}) => ({
  iss: team,
  aud: [aud],
  email: "Ana@Fintech.example",
  sub: "7335d417-61da-459d-899c-0a01c76a2f94",
  iat: nowSeconds(),
  exp: nowSeconds() + 600,
  ...overrides,
});

function setup() {
  const certs = { urls: [] as string[] };
  const fetchCerts: JwksFetch = async (url) => {
    certs.urls.push(url);
    return Response.json({ keys: [accessKey.publicJwk, ecKey.publicJwk] });
  };
  const app = new Hono<{ Bindings: OpsAuthBindings; Variables: OpsActorVariables }>();
  installProblemHandlers(app);
  app.use("/ops/*", opsAuth({ access: new AccessVerifier(fetchCerts) }));
  app.get("/ops/whoami", (c) => c.json({ actor: c.get("actor") }));
  const call = (headers: Record<string, string>, env: OpsAuthBindings = bindings) => app.request("/ops/whoami", { headers }, env);
  const asPerson = async (token: string) => call({ "Cf-Access-Jwt-Assertion": token });
  return { certs, call, asPerson };
}

async function expectRefused(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(((await response.json()) as { type: string }).type).toBe("https://pix-cashout.dev/problems/unauthorized");
}

describe("opsAuth with Cloudflare Access", () => {
  it("lets a valid assertion through and records its email, lowercased, as the actor", async () => {
    const { asPerson, certs } = setup();
    const response = await asPerson(await asymmetricToken(accessKey, claims()));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ actor: "ana@fintech.example" });
    expect(certs.urls).toEqual([`${team}/cdn-cgi/access/certs`]);
  });

  it("reads the keys from ACCESS_CERTS_URL when set", async () => {
    const { call, certs } = setup();
    const certsUrl = "https://certs.example/keys";
    const token = await asymmetricToken(accessKey, claims());
    expect((await call({ "Cf-Access-Jwt-Assertion": token }, { ...bindings, ACCESS_CERTS_URL: certsUrl })).status).toBe(200);
    expect(certs.urls).toEqual([certsUrl]);
  });

  it("accepts aud as a string too", async () => {
    const { asPerson } = setup();
    expect((await asPerson(await asymmetricToken(accessKey, claims({ aud })))).status).toBe(200);
  });

  it.each([
    ["a wrong aud", { aud: ["another-app"] }],
    ["no aud", { aud: undefined }],
    ["a wrong iss", { iss: "https://evil.cloudflareaccess.com" }],
    ["no iss", { iss: undefined }],
    ["an expired assertion", { exp: nowSeconds() - 120 }],
    ["an email with a control character", { email: "ana\u0000@fintech.example" }],
  ])("refuses %s", async (_label, overrides) => {
    const { asPerson } = setup();
    await expectRefused(await asPerson(await asymmetricToken(accessKey, claims(overrides))));
  });

  it("refuses an unknown kid", async () => {
    const { asPerson } = setup();
    await expectRefused(await asPerson(await asymmetricToken(accessKey, claims(), { alg: "RS256", kid: "not-a-published-kid" })));
  });

  it("refuses an assertion signed by another key under Access's kid", async () => {
    const { asPerson } = setup();
    const stranger = await generateSigningKey("RS256", "access-1");
    await expectRefused(await asPerson(await asymmetricToken(stranger, claims())));
  });

  it.each([
    ["ES256, even from a published key", async () => asymmetricToken(ecKey, claims())],
    ["HS256 keyed with the OPS_TOKEN", async () => hs256Token(env.OPS_TOKEN, claims(), { alg: "HS256", kid: "access-1" })],
    ["alg none", async () => `${btoa('{"alg":"none"}').replaceAll("=", "")}.${btoa(JSON.stringify(claims())).replaceAll("=", "")}.`],
  ])("refuses alg %s: Access signs with RS256 only", async (_label, mint) => {
    const { asPerson } = setup();
    await expectRefused(await asPerson(await mint()));
  });

  it("never trusts Cf-Access-Authenticated-User-Email", async () => {
    const { call } = setup();
    await expectRefused(await call({ "Cf-Access-Authenticated-User-Email": "ana@fintech.example" }));
  });

  it("keeps OPS_TOKEN for machines, with the actor ops-token", async () => {
    const { call } = setup();
    const response = await call({ Authorization: `Bearer ${env.OPS_TOKEN}` });
    expect(await response.json()).toEqual({ actor: "ops-token" });
  });

  it("lets a machine behind Access through with its OPS_TOKEN: a service token's assertion names no one and is not a credential", async () => {
    const { call } = setup();
    // A Service Auth policy's token: Access's claims with common_name (the client id) and no email.
    const service = await asymmetricToken(accessKey, claims({ email: undefined, sub: "", common_name: "a1b2c3.access" }));
    const response = await call({ "Cf-Access-Jwt-Assertion": service, Authorization: `Bearer ${env.OPS_TOKEN}` });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ actor: "ops-token" });
    await expectRefused(await call({ "Cf-Access-Jwt-Assertion": service }));
    await expectRefused(await call({ "Cf-Access-Jwt-Assertion": service, Authorization: "Bearer wrong-token-0123456789abcdef0123" }));
  });

  it("refuses a bad assertion even with a valid OPS_TOKEN beside it", async () => {
    const { call } = setup();
    const forged = await asymmetricToken(accessKey, claims({ aud: ["another-app"] }));
    await expectRefused(await call({ "Cf-Access-Jwt-Assertion": forged, Authorization: `Bearer ${env.OPS_TOKEN}` }));
  });

  it("ignores assertions when Access is not configured", async () => {
    const { call } = setup();
    const token = await asymmetricToken(accessKey, claims());
    await expectRefused(await call({ "Cf-Access-Jwt-Assertion": token }, { OPS_TOKEN: env.OPS_TOKEN }));
  });
});

describe("throttling failed operator sign-ins", () => {
  it("is configured in wrangler.toml as the Worker describes it", () => {
    expect(rateLimitConfig("OPS_AUTH_RATE_LIMIT")).toEqual({
      limit: opsAuthRateLimit.limit,
      periodSeconds: opsAuthRateLimit.periodSeconds,
    });
  });

  it("answers 429 with Retry-After once an IP is past the limit, counting only failures, per IP", async () => {
    const { call } = setup();
    const counts = new Map<string, number>();
    const limiter = {
      limit: async ({ key }: { key: string }) => {
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return { success: (counts.get(key) ?? 0) <= 2 };
      },
    };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const throttledEnv = { ...bindings, OPS_AUTH_RATE_LIMIT: limiter };
    const attempt = (ip: string, authorization: string) => call({ "CF-Connecting-IP": ip, Authorization: authorization }, throttledEnv);
    expect((await attempt("203.0.113.7", `Bearer ${env.OPS_TOKEN}`)).status).toBe(200);
    expect((await attempt("203.0.113.7", "Bearer wrong")).status).toBe(401);
    expect((await attempt("203.0.113.7", "Bearer wrong")).status).toBe(401);
    const throttled = await attempt("203.0.113.7", "Bearer wrong");
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("Retry-After")).toBe(String(opsAuthRateLimit.periodSeconds));
    expect(((await throttled.json()) as { type: string }).type).toBe("https://pix-cashout.dev/problems/rate-limited");
    expect((await attempt("198.51.100.1", "Bearer wrong")).status).toBe(401);
    expect(counts).toEqual(
      new Map([
        ["203.0.113.7", 3],
        ["198.51.100.1", 1],
      ]),
    );
    warn.mockRestore();
  });
});
