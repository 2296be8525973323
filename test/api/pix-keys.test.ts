// GET /v1/pix-keys/:key?type= (CONTRACT §2): the owner masked, 404 for a key nobody holds, 400 for
// a bad key or type (nothing spent), 429 with Retry-After past the budget.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pixKeyOwnerSchema } from "../../src/contract/schemas.ts";
import { lookupBudgetAt } from "../../src/lookup/budget.ts";
import { lookUpPixKey } from "../../src/lookup/look-up.ts";
import { providerFor } from "../../src/provider/select.ts";
import { call, clientHeaders, fundedAccount } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { expectProblem } from "./helpers.ts";

const pool = filePool(2);

async function lookUp(accountId: string, key: string, query: string): Promise<Response> {
  return call(`/v1/pix-keys/${encodeURIComponent(key)}${query}`, { headers: await clientHeaders(accountId) });
}

describe("GET /v1/pix-keys/:key", () => {
  it("answers the key normalised, the owner masked and the institution", async () => {
    const accountId = await fundedAccount(0);
    const answer = await lookUp(accountId, "100.000.001-08", "?type=cpf");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const owner = pixKeyOwnerSchema.parse(await answer.json());
    expect(owner).toMatchObject({ pix_key: "10000000108", pix_key_type: "cpf", document: "***.000.001-**" });
    expect(owner.name).toMatch(/^\S+ \S\*\*\*$/u);
    expect(owner.institution.ispb).toMatch(/^\d{8}$/);
  });

  it("answers 404 for a key nobody holds, and a miss costs 20", async () => {
    const accountId = await fundedAccount(0);
    const answer = await lookUp(accountId, "unknown@example.com", "?type=email");
    await expectProblem(answer, 404, "not-found");
    expect((await lookupBudgetAt(pool, accountId, Date.now())).tokens).toBe(80);
  });

  it.each([
    ["an invalid CPF", "123.456.789-00", "?type=cpf"],
    ["a type that is not one", "maria@example.com", "?type=pix"],
    ["no type", "maria@example.com", ""],
    ["an unknown parameter", "maria@example.com", "?type=email&x=1"],
    ["a key of another type", "maria@example.com", "?type=phone"],
  ])("refuses %s with 400 and spends nothing", async (_what, key, query) => {
    const accountId = await fundedAccount(0);
    const answer = await lookUp(accountId, key, query);
    await expectProblem(answer, 400, "validation-failed");
    expect((await lookupBudgetAt(pool, accountId, Date.now())).tokens).toBe(100);
  });

  it("answers 429 with Retry-After once the budget is spent", async () => {
    const accountId = await fundedAccount(0);
    // Spent an hour from now, so the bucket is still owed when the request comes: no race with the clock.
    const laterMs = Date.now() + 3_600_000;
    const miss = { pixKey: "unknown@example.com", pixKeyType: "email" } as const;
    for (let i = 0; i < 5; i++) expect((await lookUpPixKey(pool, providerFor(env), accountId, miss, laterMs)).kind).toBe("not_found");
    const answer = await lookUp(accountId, "maria@example.com", "?type=email");
    await expectProblem(answer, 429, "rate-limited");
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(3_600);
  });
});
