// The auth matrix through the whole Worker (CONTRACT §2, §5): every /v1 route refuses every
// kind of bad token with 401, a valid token of an unknown account gets 403, another account's
// transfer is a 404 like no transfer at all, and client and operator credentials never cross.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { balanceSchema, transferSchema } from "../../src/contract/schemas.ts";
import { assembleToken, asymmetricToken, generateSigningKey, hs256Token, nowSeconds } from "../http/jwt-fixtures.ts";
import { call, clientHeaders, clientToken, opsCall } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";
import { filePool } from "../support/pool-test.ts";
import { accountWithFinishedTransfer, emptyAccount, expectJson, expectProblem, footprint, validTransfer } from "./helpers.ts";

const pool = filePool(2);

const secret = env.JWT_SECRET ?? "";

interface Route {
  method: string;
  path: (transferId: string) => string;
  body?: string;
}

/** Every client route, each with a well-formed request, so auth is the only thing that can fail. */
const clientRoutes: Route[] = [
  { method: "POST", path: () => "/v1/transfers", body: JSON.stringify(validTransfer) },
  { method: "GET", path: () => "/v1/transfers" },
  { method: "GET", path: () => "/v1/transfers?limit=5" },
  { method: "GET", path: (id) => `/v1/transfers/${id}` },
  { method: "GET", path: () => "/v1/transfers/not-a-transfer-id" },
  { method: "GET", path: () => "/v1/balance" },
  { method: "GET", path: () => "/v1/limits" },
];

const opsRoutes: Route[] = [
  { method: "PUT", path: () => `/ops/accounts/${uniqueAccountId("auth")}` },
  { method: "POST", path: () => "/ops/accounts/acct_1/credits", body: JSON.stringify({ amount_cents: 1, idempotency_key: "k" }) },
  { method: "GET", path: () => "/ops/transfers" },
  { method: "GET", path: (id) => `/ops/transfers/${id}` },
  { method: "POST", path: (id) => `/ops/transfers/${id}/resolve`, body: JSON.stringify({ outcome: "sent", note: "n" }) },
  { method: "GET", path: () => "/ops/reconciliation" },
  { method: "POST", path: () => "/ops/sweep" },
];

function send(route: Route, transferId: string, authorization: string | undefined): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", "idempotency-key": crypto.randomUUID() };
  if (authorization !== undefined) headers.authorization = authorization;
  return call(route.path(transferId), { method: route.method, headers, ...(route.body === undefined ? {} : { body: route.body }) });
}

function label(route: Route): string {
  return `${route.method} ${route.path(":id")}`;
}

async function expectUnauthorized(response: Response, presented: boolean): Promise<void> {
  await expectProblem(response, 401, "unauthorized");
  const challenge = response.headers.get("www-authenticate");
  expect(challenge).toBe(presented ? 'Bearer realm="pix-cashout", error="invalid_token"' : 'Bearer realm="pix-cashout"');
}

/** Bad tokens, all for an account that exists, so only the token is wrong. */
async function badTokens(accountId: string): Promise<[string, string][]> {
  const claims = { sub: accountId, exp: nowSeconds() + 600 };
  const rsaKey = await generateSigningKey("RS256", "k1");
  return [
    ["garbage", "Bearer not-a-jwt"],
    ["another scheme", `Basic ${btoa("user:pass")}`],
    ["an expired token", `Bearer ${await hs256Token(secret, { ...claims, exp: nowSeconds() - 600 })}`],
    ["a token without exp", `Bearer ${await hs256Token(secret, { sub: accountId })}`],
    ["a token signed with another key", `Bearer ${await hs256Token("another-secret-another-secret-another-secret", claims)}`],
    ["alg none", `Bearer ${assembleToken({ alg: "none", typ: "JWT" }, claims)}`],
    ["an RS256-labelled token signed with the HS256 secret", `Bearer ${await hs256Token(secret, claims, { alg: "RS256", typ: "JWT" })}`],
    ["a real RS256 token", `Bearer ${await asymmetricToken(rsaKey, claims)}`],
    ["the operator token", `Bearer ${env.OPS_TOKEN}`],
  ];
}

let owner: string;
let ownersTransferId: string;

beforeAll(async () => {
  // Settled first, so the footprint checks below see only what the requests under test write.
  ({ accountId: owner, transferId: ownersTransferId } = await accountWithFinishedTransfer());
});

describe("client routes (/v1)", () => {
  it.each(clientRoutes.map((route) => [label(route), route] as const))("%s answers 401 without a token", async (_label, route) => {
    await expectUnauthorized(await send(route, ownersTransferId, undefined), false);
  });

  it.each(clientRoutes.map((route) => [label(route), route] as const))(
    "%s answers 401 to every bad token and writes nothing",
    async (_label, route) => {
      const before = await footprint(pool, owner);
      for (const [name, authorization] of await badTokens(owner)) {
        const response = await send(route, ownersTransferId, authorization);
        expect(response.status, name).toBe(401);
        await expectUnauthorized(response, true);
      }
      expect(await footprint(pool, owner)).toEqual(before);
    },
  );

  it.each(clientRoutes.map((route) => [label(route), route] as const))(
    "%s answers 403 to a valid token whose account does not exist",
    async (_label, route) => {
      const stranger = uniqueAccountId("ghost");
      const response = await send(route, crypto.randomUUID(), `Bearer ${await clientToken(stranger)}`);
      await expectProblem(response, 403, "forbidden");
      expect(await footprint(pool, stranger)).toMatchObject({ transfers: 0, holds: 0, balanceCents: null });
    },
  );

  it("serves the owner with a valid token", async () => {
    const response = await call(`/v1/transfers/${ownersTransferId}`, { headers: await clientHeaders(owner) });
    expect((await expectJson(response, 200, transferSchema)).id).toBe(ownersTransferId);
    expect((await expectJson(await call("/v1/balance", { headers: await clientHeaders(owner) }), 200, balanceSchema)).account_id).toBe(
      owner,
    );
  });

  it("answers another account's transfer exactly as a transfer that does not exist: 404", async () => {
    const other = await emptyAccount("other");
    const headers = await clientHeaders(other);
    const theirs = await expectProblem(await call(`/v1/transfers/${ownersTransferId}`, { headers }), 404, "not-found");
    const none = await expectProblem(await call(`/v1/transfers/${crypto.randomUUID()}`, { headers }), 404, "not-found");
    expect({ ...theirs, request_id: "" }).toEqual({ ...none, request_id: "" });
  });

  it("never lists another account's transfers", async () => {
    const other = await emptyAccount("other");
    const response = await call("/v1/transfers", { headers: await clientHeaders(other) });
    expect(await response.json()).toEqual({ data: [], next_cursor: null });
  });
});

describe("operator routes (/ops)", () => {
  it.each(opsRoutes.map((route) => [label(route), route] as const))("%s answers 401 without a token", async (_label, route) => {
    await expectUnauthorized(await send(route, crypto.randomUUID(), undefined), false);
  });

  it.each(opsRoutes.map((route) => [label(route), route] as const))("%s answers 401 to a valid client JWT", async (_label, route) => {
    const response = await send(route, crypto.randomUUID(), `Bearer ${await clientToken(owner)}`);
    await expectUnauthorized(response, true);
  });

  it("lets the operator token in", async () => {
    expect((await opsCall("/ops/reconciliation")).status).toBe(200);
  });
});
