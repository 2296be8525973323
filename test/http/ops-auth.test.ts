import { env } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import { type OpsAuthBindings, opsAuth } from "../../src/http/auth/ops-auth.ts";
import { installProblemHandlers } from "../../src/web/problem.ts";
import { hs256Token, validClaims } from "./jwt-fixtures.ts";

const opsToken = env.OPS_TOKEN;

async function call(authorization: string | undefined, bindings: OpsAuthBindings = { OPS_TOKEN: opsToken }): Promise<Response> {
  const app = new Hono<{ Bindings: OpsAuthBindings }>();
  installProblemHandlers(app);
  app.use("/ops/*", opsAuth());
  app.get("/ops/ping", (c) => c.json({ ok: true }));
  const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
  return app.request("/ops/ping", { headers }, bindings);
}

async function expectUnauthorized(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.headers.get("WWW-Authenticate")).toMatch(/^Bearer realm="pix-cashout"/);
  expect(((await response.json()) as { type: string }).type).toBe("https://pix-cashout.dev/problems/unauthorized");
}

describe("opsAuth", () => {
  it("lets the operator token through", async () => {
    const response = await call(`Bearer ${opsToken}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("answers 401 without a token", async () => {
    await expectUnauthorized(await call(undefined));
  });

  it.each([
    ["a wrong token", "Bearer wrong-token"],
    ["a prefix of the token", `Bearer ${opsToken.slice(0, -1)}`],
    ["the token with more after it", `Bearer ${opsToken}x`],
    ["the token under another scheme", `Basic ${opsToken}`],
    ["the token without a scheme", opsToken],
  ])("answers 401 for %s", async (_label, authorization) => {
    await expectUnauthorized(await call(authorization));
  });

  it("answers 401 for a valid client JWT", async () => {
    const clientJwt = await hs256Token(env.JWT_SECRET ?? "", validClaims());
    await expectUnauthorized(await call(`Bearer ${clientJwt}`));
  });

  it("fails closed when OPS_TOKEN is unset: even an empty bearer is refused", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    await expectUnauthorized(await call("Bearer ", { OPS_TOKEN: "" }));
    await expectUnauthorized(await call(`Bearer ${opsToken}`, { OPS_TOKEN: "" }));
    expect(error).toHaveBeenCalledWith(expect.stringContaining("ops_token_unset"));
    error.mockRestore();
  });
});
