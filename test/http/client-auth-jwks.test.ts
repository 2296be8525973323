import { env } from "cloudflare:test";
import { Hono } from "hono";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type JwksFetch, jwksCacheTtlMs, jwksRefetchIntervalMsMin, jwksStaleMsMax } from "../../src/auth/jwks.ts";
import { type ClientAuthBindings, type ClientAuthVariables, clientAuth } from "../../src/http/auth/client-auth.ts";
import { installProblemHandlers } from "../../src/web/problem.ts";
import { asymmetricToken, generateSigningKey, hs256Token, type SigningKey, validClaims } from "./jwt-fixtures.ts";

const jwksUrl = "https://issuer.test/.well-known/jwks.json";
const issuer = "https://issuer.test/";
const audience = "pix-cashout";
/** JWT_JWKS_URL without JWT_ISSUER and JWT_AUDIENCE: a configuration that must never authenticate anyone. */
const openEnv: ClientAuthBindings = { JWT_SECRET: env.JWT_SECRET, JWT_JWKS_URL: jwksUrl, DEVICE_RULES: "off" };
const strictEnv: ClientAuthBindings = { ...openEnv, JWT_ISSUER: issuer, JWT_AUDIENCE: audience };
/** A valid claim set for this issuer and audience. */
const claims = (overrides: Record<string, unknown> = {}) => validClaims({ iss: issuer, aud: audience, ...overrides });

let rsa: SigningKey;
let ec: SigningKey;
let rotated: SigningKey;

beforeAll(async () => {
  [rsa, ec, rotated] = await Promise.all([
    generateSigningKey("RS256", "rsa-1"),
    generateSigningKey("ES256", "ec-1"),
    generateSigningKey("RS256", "rsa-2"),
  ]);
});

/** A JWKS endpoint under the test's control: its keys, whether it is up, and how often it was asked. */
/** JWKS entries as served: JsonWebKey plus the `kid` that workers-types leaves out. */
type Jwk = JsonWebKey & { kid?: string };

function fakeIssuer(keys: Jwk[]) {
  const state = { keys, up: true, fetches: 0, urls: [] as string[] };
  const fetchJwks: JwksFetch = async (url) => {
    state.fetches += 1;
    state.urls.push(url);
    if (!state.up) throw new TypeError("connection refused");
    return Response.json({ keys: state.keys });
  };
  return { state, fetchJwks };
}

function setup(keys: Jwk[] = [rsa.publicJwk, ec.publicJwk]) {
  const issuer = fakeIssuer(keys);
  const clock = { nowMs: Date.now() };
  const app = new Hono<{ Bindings: ClientAuthBindings; Variables: ClientAuthVariables }>();
  installProblemHandlers(app);
  app.use(clientAuth({ fetchJwks: issuer.fetchJwks, nowMs: () => clock.nowMs }));
  app.get("/whoami", (c) => c.json({ account_id: c.get("accountId") }));
  const call = (token: string, bindings: ClientAuthBindings = strictEnv) =>
    app.request("/whoami", { headers: { Authorization: `Bearer ${token}` } }, bindings);
  return { issuer, clock, call };
}

async function expect401(response: Response, detail: RegExp): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("WWW-Authenticate")).toContain("Bearer");
  expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
}

describe("clientAuth with a JWKS (JWT_JWKS_URL set)", () => {
  it("accepts an RS256 token from the JWKS and sets accountId", async () => {
    const { call, issuer } = setup();
    const response = await call(await asymmetricToken(rsa, claims({ sub: "acct_rsa" })));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ account_id: "acct_rsa" });
    expect(issuer.state.urls).toEqual([jwksUrl]);
  });

  it("accepts an ES256 token from the JWKS", async () => {
    const { call } = setup();
    const response = await call(await asymmetricToken(ec, claims({ sub: "acct_ec" })));
    expect(await response.json()).toEqual({ account_id: "acct_ec" });
  });

  it("refuses HS256 signed with JWT_SECRET: HS256 is off once a JWKS is configured", async () => {
    const { call } = setup();
    await expect401(await call(await hs256Token(env.JWT_SECRET ?? "", claims(), { alg: "HS256", kid: "rsa-1" })), /algorithm/);
  });

  it("refuses HS256 keyed with the RSA public key (algorithm confusion)", async () => {
    const { call } = setup();
    const publicKeyBytes = new TextEncoder().encode(JSON.stringify(rsa.publicJwk));
    await expect401(await call(await hs256Token(publicKeyBytes, claims(), { alg: "HS256", kid: "rsa-1" })), /algorithm/);
  });

  it("refuses a token whose alg does not match its key's type", async () => {
    const { call } = setup();
    // Signed by the EC key but claiming the RSA key's kid, and vice versa.
    await expect401(await call(await asymmetricToken(ec, claims(), { alg: "ES256", kid: "rsa-1" })), /unknown key/);
    await expect401(await call(await asymmetricToken(rsa, claims(), { alg: "RS256", kid: "ec-1" })), /unknown key/);
  });

  it("refuses a token without kid", async () => {
    const { call } = setup();
    await expect401(await call(await asymmetricToken(rsa, claims(), { alg: "RS256" })), /unknown key/);
  });

  it("refuses a token signed by a key that is not in the JWKS", async () => {
    const { call } = setup();
    const stranger = await generateSigningKey("RS256", "rsa-1");
    await expect401(await call(await asymmetricToken(stranger, claims())), /signature/);
  });

  it("refuses an expired or exp-less token", async () => {
    const { call } = setup();
    await expect401(await call(await asymmetricToken(rsa, claims({ exp: Math.floor(Date.now() / 1000) - 300 }))), /expired/);
    await expect401(await call(await asymmetricToken(ec, { sub: "acct_1", iss: issuer, aud: audience })), /exp/);
  });

  it("checks iss and aud when configured", async () => {
    const { call } = setup();
    const good = { iss: "https://issuer.test/", aud: "pix-cashout" };
    expect((await call(await asymmetricToken(rsa, validClaims(good)), strictEnv)).status).toBe(200);
    expect((await call(await asymmetricToken(rsa, validClaims({ ...good, aud: ["other", "pix-cashout"] })), strictEnv)).status).toBe(200);
    await expect401(await call(await asymmetricToken(rsa, validClaims({ ...good, iss: "https://evil.test/" })), strictEnv), /issuer/);
    await expect401(await call(await asymmetricToken(rsa, validClaims({ aud: "pix-cashout" })), strictEnv), /issuer/);
    await expect401(await call(await asymmetricToken(rsa, validClaims({ ...good, aud: "other" })), strictEnv), /audience/);
    await expect401(await call(await asymmetricToken(rsa, validClaims({ iss: good.iss })), strictEnv), /audience/);
  });

  it("refuses every token, answering 503 misconfigured, when JWT_ISSUER or JWT_AUDIENCE is missing", async () => {
    const { call, issuer: keys } = setup();
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const token = await asymmetricToken(rsa, claims());
    for (const bindings of [openEnv, { ...openEnv, JWT_ISSUER: issuer }, { ...openEnv, JWT_AUDIENCE: audience }]) {
      const response = await call(token, bindings);
      expect(response.status).toBe(503);
      expect(((await response.json()) as { type: string }).type).toBe("https://pix-cashout.dev/problems/misconfigured");
    }
    expect(error).toHaveBeenCalledWith(expect.stringContaining("jwks_without_issuer_or_audience"));
    error.mockRestore();
    expect(keys.state.fetches).toBe(0);
  });

  it.each(["JWT", "at+jwt", "application/at+jwt"])("accepts typ %s", async (typ) => {
    const { call } = setup();
    expect((await call(await asymmetricToken(rsa, claims(), { alg: "RS256", kid: "rsa-1", typ }))).status).toBe(200);
  });

  it("accepts a token without typ", async () => {
    const { call } = setup();
    expect((await call(await asymmetricToken(rsa, claims(), { alg: "RS256", kid: "rsa-1" }))).status).toBe(200);
  });

  it.each(["JOSE", "dpop+jwt", "logout+jwt", ""])("refuses typ %j", async (typ) => {
    const { call } = setup();
    await expect401(await call(await asymmetricToken(rsa, claims(), { alg: "RS256", kid: "rsa-1", typ })), /typ/);
  });

  it("refuses a token issued in the future, tolerating the clock skew", async () => {
    const { call } = setup();
    const nowSeconds = Math.floor(Date.now() / 1000);
    await expect401(await call(await asymmetricToken(rsa, claims({ iat: nowSeconds + 300 }))), /future/);
    expect((await call(await asymmetricToken(rsa, claims({ iat: nowSeconds + 10 })))).status).toBe(200);
    expect((await call(await asymmetricToken(rsa, claims({ iat: nowSeconds - 60 })))).status).toBe(200);
  });

  it("fetches the JWKS once and reuses it until the TTL passes", async () => {
    const { call, issuer, clock } = setup();
    const token = await asymmetricToken(rsa, claims());
    await call(token);
    await call(token);
    expect(issuer.state.fetches).toBe(1);
    clock.nowMs += jwksCacheTtlMs;
    expect((await call(token)).status).toBe(200);
    expect(issuer.state.fetches).toBe(2);
  });

  it("drops a key removed from the JWKS once the cache expires", async () => {
    const { call, issuer, clock } = setup();
    const token = await asymmetricToken(rsa, claims());
    expect((await call(token)).status).toBe(200);
    issuer.state.keys = [ec.publicJwk];
    clock.nowMs += jwksCacheTtlMs;
    await expect401(await call(token), /unknown key/);
  });

  it("picks up a rotated key, but refetches for unknown kids at most once per interval", async () => {
    const { call, issuer, clock } = setup();
    expect((await call(await asymmetricToken(rsa, claims()))).status).toBe(200);
    issuer.state.keys = [rsa.publicJwk, rotated.publicJwk];
    const rotatedToken = await asymmetricToken(rotated, claims());
    await expect401(await call(rotatedToken), /unknown key/); // too soon after the last fetch
    await expect401(await call(await asymmetricToken(rsa, claims(), { alg: "RS256", kid: "random-kid" })), /unknown key/);
    expect(issuer.state.fetches).toBe(1);
    clock.nowMs += jwksRefetchIntervalMsMin;
    expect((await call(rotatedToken)).status).toBe(200);
    expect(issuer.state.fetches).toBe(2);
  });

  it("answers 503, not 401, when the JWKS cannot be fetched and nothing is cached", async () => {
    const { call, issuer } = setup();
    issuer.state.up = false;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await call(await asymmetricToken(rsa, claims()));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("jwks_fetch_failed"));
    expect(error).toHaveBeenCalledWith(expect.stringContaining("jwks_unavailable"));
    warn.mockRestore();
    error.mockRestore();
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe(String(jwksRefetchIntervalMsMin / 1000));
    expect(((await response.json()) as { type: string }).type).toBe("https://pix-cashout.dev/problems/unavailable");
  });

  it("keeps using cached keys while the issuer is down, for a bounded time", async () => {
    const { call, issuer, clock } = setup();
    const token = await asymmetricToken(rsa, claims({ exp: Math.floor(Date.now() / 1000) + 86_400 }));
    expect((await call(token)).status).toBe(200);
    issuer.state.up = false;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    clock.nowMs += jwksCacheTtlMs;
    expect((await call(token)).status).toBe(200);
    clock.nowMs += jwksStaleMsMax;
    expect((await call(token)).status).toBe(503);
    warn.mockRestore();
    error.mockRestore();
  });

  it("ignores JWKS entries that are not signing keys it can use", async () => {
    const encryptionOnly = { ...rsa.publicJwk, use: "enc" };
    const { call } = setup([encryptionOnly, { kty: "oct", kid: "hmac", k: "c2VjcmV0" }, ec.publicJwk]);
    await expect401(await call(await asymmetricToken(rsa, claims())), /unknown key/);
    expect((await call(await asymmetricToken(ec, claims()))).status).toBe(200);
  });

  it("uses only the public members of a JWKS entry that also carries a private key", async () => {
    const exported = (await crypto.subtle.exportKey("jwk", ec.privateKey)) as JsonWebKey;
    const { call } = setup([{ ...exported, kid: "ec-1", alg: "ES256" }]);
    expect((await call(await asymmetricToken(ec, claims()))).status).toBe(200);
  });
});
