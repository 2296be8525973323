import { env } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import { type ClientAuthBindings, type ClientAuthVariables, clientAuth } from "../../src/http/auth/client-auth.ts";
import { encodeBase64Url } from "../../src/lib/base64url.ts";
import { installProblemHandlers } from "../../src/web/problem.ts";
import { assembleToken, asymmetricToken, generateSigningKey, hs256Token, nowSeconds, validClaims } from "./jwt-fixtures.ts";

const secret = env.JWT_SECRET ?? "";
/** The device rules have their own tests below; the token's other checks are the same either way. */
const hs256Env: ClientAuthBindings = { JWT_SECRET: secret, DEVICE_RULES: "off" };

function authedApp() {
  const app = new Hono<{ Bindings: ClientAuthBindings; Variables: ClientAuthVariables }>();
  installProblemHandlers(app);
  app.use(clientAuth());
  app.get("/whoami", (c) => c.json({ account_id: c.get("accountId") }));
  return app;
}

async function call(authorization: string | undefined, bindings: ClientAuthBindings = hs256Env): Promise<Response> {
  const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
  return authedApp().request("/whoami", { headers }, bindings);
}

async function expectUnauthorized(response: Response, challenge: string, detail?: RegExp): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.headers.get("WWW-Authenticate")).toBe(challenge);
  const body = (await response.json()) as { type: string; status: number; detail: string };
  expect(body.type).toBe("https://pix-cashout.dev/problems/unauthorized");
  expect(body.status).toBe(401);
  if (detail) expect(body.detail).toMatch(detail);
}

const invalidToken = 'Bearer realm="pix-cashout", error="invalid_token"';

describe("clientAuth with HS256 (JWT_JWKS_URL unset)", () => {
  it("the test secret is configured", () => {
    expect(secret.length).toBeGreaterThanOrEqual(32);
  });

  it("sets accountId from sub for a valid token", async () => {
    const response = await call(`Bearer ${await hs256Token(secret, validClaims())}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ account_id: "acct_1" });
  });

  it("accepts the scheme name in any case", async () => {
    const response = await call(`bearer ${await hs256Token(secret, validClaims())}`);
    expect(response.status).toBe(200);
  });

  it("answers 401 with a bare challenge when no token is sent", async () => {
    await expectUnauthorized(await call(undefined), 'Bearer realm="pix-cashout"', /required/);
  });

  it.each([
    ["another scheme", "Basic YWxpY2U6c2VjcmV0"],
    ["garbage", "Bearer not-a-jwt"],
    ["two parts", "Bearer abc.def"],
    ["four parts", "Bearer a.b.c.d"],
    ["a space inside", "Bearer abc def.ghi"],
    ["no token after the scheme", "Bearer "],
  ])("answers 401 for %s", async (_label, authorization) => {
    await expectUnauthorized(await call(authorization), invalidToken);
  });

  it("answers 401 for an expired token", async () => {
    const token = await hs256Token(secret, validClaims({ exp: nowSeconds() - 120 }));
    await expectUnauthorized(await call(`Bearer ${token}`), invalidToken, /expired/);
  });

  it("tolerates an expiry within the clock skew", async () => {
    const token = await hs256Token(secret, validClaims({ exp: nowSeconds() - 10 }));
    expect((await call(`Bearer ${token}`)).status).toBe(200);
  });

  it("answers 401 for a token without exp", async () => {
    const token = await hs256Token(secret, { sub: "acct_1" });
    await expectUnauthorized(await call(`Bearer ${token}`), invalidToken, /exp/);
  });

  it("answers 401 for a non-numeric exp", async () => {
    const token = await hs256Token(secret, validClaims({ exp: String(nowSeconds() + 3600) }));
    await expectUnauthorized(await call(`Bearer ${token}`), invalidToken);
  });

  it("honours nbf, with the clock skew", async () => {
    const future = await hs256Token(secret, validClaims({ nbf: nowSeconds() + 120 }));
    await expectUnauthorized(await call(`Bearer ${future}`), invalidToken, /not valid yet/);
    const nearlyNow = await hs256Token(secret, validClaims({ nbf: nowSeconds() + 10 }));
    expect((await call(`Bearer ${nearlyNow}`)).status).toBe(200);
  });

  it("answers 401 for a typ that is not a JWT's, and accepts JWT and at+jwt", async () => {
    const bad = await hs256Token(secret, validClaims(), { alg: "HS256", typ: "secevent+jwt" });
    await expectUnauthorized(await call(`Bearer ${bad}`), invalidToken, /typ/);
    for (const typ of ["JWT", "at+jwt"]) {
      expect((await call(`Bearer ${await hs256Token(secret, validClaims(), { alg: "HS256", typ })}`)).status).toBe(200);
    }
  });

  it("answers 401 for an iat in the future", async () => {
    const token = await hs256Token(secret, validClaims({ iat: nowSeconds() + 600 }));
    await expectUnauthorized(await call(`Bearer ${token}`), invalidToken, /future/);
  });

  it("answers 401 for a token signed with another secret", async () => {
    const token = await hs256Token("another-secret-another-secret-another-secret", validClaims());
    await expectUnauthorized(await call(`Bearer ${token}`), invalidToken, /signature/);
  });

  it("answers 401 when the payload was changed after signing", async () => {
    const token = await hs256Token(secret, validClaims());
    const [header, , signature] = token.split(".");
    const forgedPayload = encodeBase64Url(new TextEncoder().encode(JSON.stringify(validClaims({ sub: "acct_2" }))));
    await expectUnauthorized(await call(`Bearer ${header}.${forgedPayload}.${signature}`), invalidToken, /signature/);
  });

  it.each([
    ["alg none without a signature", { alg: "none", typ: "JWT" }, new Uint8Array()],
    ["alg None", { alg: "None" }, new Uint8Array()],
    ["alg none with junk signature", { alg: "none" }, new Uint8Array([1, 2, 3])],
    ["HS512", { alg: "HS512" }, new Uint8Array(64)],
    ["no alg", { typ: "JWT" }, new Uint8Array(32)],
  ])("answers 401 for %s", async (_label, header, signature) => {
    await expectUnauthorized(await call(`Bearer ${assembleToken(header, validClaims(), signature)}`), invalidToken, /algorithm/);
  });

  it("answers 401 for an RS256 token: only HS256 is on without a JWKS", async () => {
    const key = await generateSigningKey("RS256", "k1");
    await expectUnauthorized(await call(`Bearer ${await asymmetricToken(key, validClaims())}`), invalidToken, /algorithm/);
  });

  it("answers 401 for a token naming critical extensions", async () => {
    const token = await hs256Token(secret, validClaims(), { alg: "HS256", crit: ["exp"] });
    await expectUnauthorized(await call(`Bearer ${token}`), invalidToken);
  });

  it.each([
    ["missing", undefined],
    ["a number", 42],
    ["empty", ""],
    ["too long", "a".repeat(65)],
    ["with a slash", "acct/1"],
  ])("answers 401 when sub is %s", async (_label, sub) => {
    const token = await hs256Token(secret, { exp: nowSeconds() + 3600, sub });
    await expectUnauthorized(await call(`Bearer ${token}`), invalidToken, /subject/);
  });

  it("accepts a 64-character account id", async () => {
    const sub = `${"a".repeat(62)}-_`;
    const response = await call(`Bearer ${await hs256Token(secret, validClaims({ sub }))}`);
    expect(await response.json()).toEqual({ account_id: sub });
  });

  it("answers 401 for a payload that is not a JSON object", async () => {
    const header = encodeBase64Url(new TextEncoder().encode('{"alg":"HS256"}'));
    const payload = encodeBase64Url(new TextEncoder().encode("[1,2]"));
    await expectUnauthorized(await call(`Bearer ${header}.${payload}.AAAA`), invalidToken, /well-formed/);
  });

  it("answers 401 for an oversized token without verifying it", async () => {
    const token = await hs256Token(secret, validClaims({ padding: "x".repeat(9000) }));
    await expectUnauthorized(await call(`Bearer ${token}`), invalidToken);
  });

  it("checks iss and aud when configured, as in JWKS mode", async () => {
    const bindings = { ...hs256Env, JWT_ISSUER: "https://issuer.test/", JWT_AUDIENCE: "pix-cashout" };
    const good = validClaims({ iss: "https://issuer.test/", aud: "pix-cashout" });
    expect((await call(`Bearer ${await hs256Token(secret, good)}`, bindings)).status).toBe(200);
    await expectUnauthorized(await call(`Bearer ${await hs256Token(secret, validClaims())}`, bindings), invalidToken, /issuer/);
    await expectUnauthorized(
      await call(`Bearer ${await hs256Token(secret, { ...good, aud: "other" })}`, bindings),
      invalidToken,
      /audience/,
    );
  });

  it("fails loudly (500, not 401 or 200) when JWT_SECRET is too short", async () => {
    const errorLog = vi.spyOn(console, "error").mockImplementation(() => {});
    const token = await hs256Token("short", validClaims());
    const response = await call(`Bearer ${token}`, { JWT_SECRET: "short" });
    expect(errorLog).toHaveBeenCalledWith(expect.stringContaining("JWT_SECRET must be set"));
    errorLog.mockRestore();
    expect(response.status).toBe(500);
    expect(((await response.json()) as { type: string }).type).toBe("https://pix-cashout.dev/problems/internal");
  });
});
