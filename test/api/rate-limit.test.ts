// The per-account rate limit on POST /v1/transfers, through the real Workers rate-limiting
// binding configured in wrangler.toml (miniflare runs it locally).
import { describe, expect, it } from "vitest";
import { transferSchema } from "../../src/contract/schemas.ts";
import { transferRateLimit } from "../../src/http/rate-limit.ts";
import { call, clientHeaders, createTransfer } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";
import { emptyAccount, expectJson, expectProblem, validTransfer } from "./helpers.ts";
import { rateLimitConfig } from "./wrangler-config.ts";

const config = rateLimitConfig("TRANSFER_RATE_LIMIT");

/** An attempt the limiter counts but that writes nothing: an empty body is a 400 after the limiter. */
async function attempt(accountId: string): Promise<Response> {
  return call("/v1/transfers", { method: "POST", headers: await clientHeaders(accountId, { "idempotency-key": "k" }), body: "" });
}

/** Attempts until the first 429; the number that passed before it, and the 429. */
async function exhaust(accountId: string): Promise<{ passed: number; limited: Response | undefined }> {
  let passed = 0;
  // The local limiter counts in fixed windows aligned to the clock, so the first 429 comes after
  // `limit` attempts in one window: at least `limit` attempts in all, and at most twice that
  // when the run straddles a window's end.
  while (passed <= 2 * config.limit) {
    const response = await attempt(accountId);
    if (response.status === 429) return { passed, limited: response };
    expect(response.status).toBe(400);
    passed += 1;
  }
  return { passed, limited: undefined };
}

describe("rate limit on POST /v1/transfers", () => {
  it("is configured in wrangler.toml as the Worker describes it, and generously", () => {
    expect(config).toEqual({ limit: transferRateLimit.limit, periodSeconds: transferRateLimit.periodSeconds });
    expect(config.limit).toBeGreaterThanOrEqual(60);
  });

  it("answers 429 rate-limited with Retry-After once an account passes the limit, sparing other accounts", async () => {
    const accountId = uniqueAccountId("rate");
    const { passed, limited } = await exhaust(accountId);
    expect(limited).toBeDefined();
    expect(passed).toBeGreaterThanOrEqual(config.limit);
    expect(passed).toBeLessThanOrEqual(2 * config.limit);
    if (limited === undefined) return;
    const problem = await expectProblem(limited, 429, "rate-limited");
    expect(problem.type).toMatch(/\/rate-limited$/);
    expect(limited.headers.get("retry-after")).toBe(String(config.periodSeconds));

    // Still limited: a valid request is refused too, before anything is read or written.
    await expectProblem(await createTransfer(accountId, validTransfer), 429, "rate-limited");

    // Another account is not affected.
    const other = await emptyAccount("rate");
    await expectJson(await createTransfer(other, validTransfer), 202, transferSchema);
  });

  it("limits only creating transfers: the same account still reads", async () => {
    const accountId = await emptyAccount("rate");
    const { limited } = await exhaust(accountId);
    expect(limited?.status).toBe(429);
    const list = await call("/v1/transfers", { headers: await clientHeaders(accountId) });
    expect(list.status).toBe(200);
    const balance = await call("/v1/balance", { headers: await clientHeaders(accountId) });
    expect(balance.status).toBe(200);
  });
});
