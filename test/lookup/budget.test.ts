// The lookup budget (CONTRACT §2), on a driven clock against the real sandbox directory: a
// bucket of 100 that refills 2 a minute; a hit costs 1, a miss 20; a burst never spends more
// than the bucket holds; a provider that says nothing costs nothing.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { lookupBudgetAt } from "../../src/lookup/budget.ts";
import { type LookupResult, lookUpPixKey } from "../../src/lookup/look-up.ts";
import { createHttpProvider } from "../../src/provider/http-provider.ts";
import type { KeyLookup } from "../../src/provider/port.ts";
import { providerFor } from "../../src/provider/select.ts";
import { fundedAccount } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";

const pool = filePool(10);

const t0 = Date.parse("2026-11-20T15:00:00Z");
const hit: KeyLookup = { pixKey: "maria@example.com", pixKeyType: "email" };
const miss: KeyLookup = { pixKey: "unknown-someone@example.com", pixKeyType: "email" };

function lookUp(accountId: string, query: KeyLookup, nowMs: number): Promise<LookupResult> {
  return lookUpPixKey(pool, providerFor(env), accountId, query, nowMs);
}

async function tokensAt(accountId: string, nowMs: number): Promise<number> {
  return (await lookupBudgetAt(pool, accountId, nowMs)).tokens;
}

describe("the lookup budget", () => {
  it("answers exactly 100 hits in a row, then refuses with the time until the next token", async () => {
    const accountId = await fundedAccount(0);
    for (let i = 0; i < 100; i++) expect((await lookUp(accountId, hit, t0)).kind).toBe("found");
    expect(await lookUp(accountId, hit, t0)).toEqual({ kind: "over_budget", retryAfterMs: 30_000 });
    expect(await lookUp(accountId, hit, t0 + 10_000)).toEqual({ kind: "over_budget", retryAfterMs: 20_000 });
  });

  it("charges 20 for a miss: five misses empty the bucket", async () => {
    const accountId = await fundedAccount(0);
    for (let i = 0; i < 5; i++) expect((await lookUp(accountId, miss, t0)).kind).toBe("not_found");
    expect(await tokensAt(accountId, t0)).toBe(0);
    expect((await lookUp(accountId, hit, t0)).kind).toBe("over_budget");
  });

  it("lets a miss with less than 20 left through, and the debt is repaid before the next lookup", async () => {
    const accountId = await fundedAccount(0);
    for (let i = 0; i < 90; i++) await lookUp(accountId, hit, t0);
    expect((await lookUp(accountId, miss, t0)).kind).toBe("not_found");
    expect(await tokensAt(accountId, t0)).toBe(-10);
    // Eleven tokens (5.5 minutes) to be back at one.
    expect(await lookUp(accountId, hit, t0)).toEqual({ kind: "over_budget", retryAfterMs: 330_000 });
    expect((await lookUp(accountId, hit, t0 + 330_000)).kind).toBe("found");
  });

  it("refills 2 a minute, up to 100 and no more", async () => {
    const accountId = await fundedAccount(0);
    for (let i = 0; i < 5; i++) await lookUp(accountId, miss, t0);
    expect(await tokensAt(accountId, t0 + 59_999)).toBe(1);
    expect(await tokensAt(accountId, t0 + 60_000)).toBe(2);
    expect((await lookUp(accountId, hit, t0 + 60_000)).kind).toBe("found");
    expect((await lookUp(accountId, hit, t0 + 60_000)).kind).toBe("found");
    expect((await lookUp(accountId, hit, t0 + 60_000)).kind).toBe("over_budget");
    // 50 minutes fill the bucket; a day more adds nothing.
    expect(await tokensAt(accountId, t0 + 60_000 + 50 * 60_000)).toBe(100);
    expect(await lookupBudgetAt(pool, accountId, t0 + 86_400_000)).toMatchObject({ tokens: 100, tokens_max: 100 });
  });

  it("never lets a burst of concurrent misses spend more than the bucket holds", async () => {
    const accountId = await fundedAccount(0);
    const results = await Promise.all(Array.from({ length: 12 }, () => lookUp(accountId, miss, t0)));
    expect(results.filter((r) => r.kind === "not_found")).toHaveLength(5);
    expect(results.filter((r) => r.kind === "over_budget")).toHaveLength(7);
    expect(await tokensAt(accountId, t0)).toBe(0);
  });

  it("never lets a burst of concurrent hits through beyond 100, and charges each one exactly once", async () => {
    const accountId = await fundedAccount(0);
    const results = await Promise.all(Array.from({ length: 130 }, () => lookUp(accountId, hit, t0)));
    const found = results.filter((r) => r.kind === "found").length;
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThanOrEqual(100);
    expect(results.filter((r) => r.kind === "over_budget")).toHaveLength(130 - found);
    expect(await tokensAt(accountId, t0)).toBe(100 - found);
  });

  it("gives everything back when the provider says nothing (a 5xx, a timeout)", async () => {
    const accountId = await fundedAccount(0);
    const failing = (fetcher: (request: Request) => Promise<Response>) =>
      createHttpProvider({ baseUrl: "http://psp.invalid", token: undefined, timeoutMs: 200, fetcher });
    const down = failing(async () => new Response("upstream down", { status: 502 }));
    const hanging = failing(() => new Promise<Response>(() => undefined));
    const gateway404 = failing(async () => new Response("<html>not here</html>", { status: 404 }));
    for (const provider of [down, hanging, gateway404]) {
      expect((await lookUpPixKey(pool, provider, accountId, hit, t0)).kind).toBe("provider_unavailable");
    }
    expect(await tokensAt(accountId, t0)).toBe(100);
  });
});
