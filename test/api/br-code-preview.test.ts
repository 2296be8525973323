// POST /v1/br-codes/preview (CONTRACT §2): a static code read as it is, a dynamic one as the
// sandbox provider resolves it; bad codes are 400 /invalid-br-code; nothing is ever written.
import { describe, expect, it } from "vitest";
import { brCodePreviewSchema } from "../../src/contract/schemas.ts";
import { call, clientHeaders, fundedAccount } from "../support/api.ts";
import { dynamicBrCode, staticBrCode, withWrongCrc } from "../support/br-codes.ts";
import { uniqueAccountId } from "../support/db.ts";
import { filePool } from "../support/pool-test.ts";
import { expectJson, expectProblem, expectValidationProblem, footprint } from "./helpers.ts";

const pool = filePool(2);

async function preview(accountId: string, body: unknown): Promise<Response> {
  return call("/v1/br-codes/preview", { method: "POST", headers: await clientHeaders(accountId), body: JSON.stringify(body) });
}

describe("POST /v1/br-codes/preview", () => {
  it("reads a static code: its key with the type inferred, its amount, merchant and txid", async () => {
    const accountId = await fundedAccount(0);
    const code = staticBrCode({ pixKey: "+5511987654321", pixKeyType: "phone", amountCents: 12_345, txid: "FATURA7" });
    const response = await preview(accountId, { br_code: code });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await expectJson(response, 200, brCodePreviewSchema)).toEqual({
      kind: "static",
      pix_key: "+5511987654321",
      pix_key_type: "phone",
      amount_cents: 12_345,
      merchant_name: "LOJA DA ANA",
      merchant_city: "SAO PAULO",
      txid: "FATURA7",
    });
  });

  it("shows a null amount for a static code that lets the payer choose", async () => {
    const accountId = await fundedAccount(0);
    const code = staticBrCode({ pixKey: "10000000108", pixKeyType: "cpf", amountCents: null });
    expect(await expectJson(await preview(accountId, { br_code: code }), 200, brCodePreviewSchema)).toMatchObject({
      kind: "static",
      pix_key_type: "cpf",
      amount_cents: null,
    });
  });

  it("shows what the provider resolved for a dynamic code, the same every time", async () => {
    const accountId = await fundedAccount(0);
    const code = dynamicBrCode("reject@sandbox.test", 990);
    const first = await expectJson(await preview(accountId, { br_code: code }), 200, brCodePreviewSchema);
    expect(first).toMatchObject({
      kind: "dynamic",
      pix_key: "reject@sandbox.test",
      pix_key_type: "email",
      amount_cents: 990,
      merchant_name: "LOJA DA ANA",
      merchant_city: "SAO PAULO",
    });
    expect(first.txid).toMatch(/^[A-Za-z0-9]{26,35}$/);
    expect(await expectJson(await preview(accountId, { br_code: code }), 200, brCodePreviewSchema)).toEqual(first);
    const madeUp = await expectJson(await preview(accountId, { br_code: dynamicBrCode("cobv-77", null) }), 200, brCodePreviewSchema);
    expect(madeUp).toMatchObject({ kind: "dynamic", pix_key_type: "evp", amount_cents: null });
  });

  it("refuses a wrong CRC as /invalid-br-code, and writes nothing", async () => {
    const accountId = await fundedAccount(1_000);
    const before = await footprint(pool, accountId);
    const code = staticBrCode({ pixKey: "10000000108", pixKeyType: "cpf", amountCents: 100 });
    const problem = await expectProblem(await preview(accountId, { br_code: withWrongCrc(code) }), 400, "invalid-br-code");
    expect(problem.errors?.[0]?.field).toBe("br_code");
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it("answers 422 /br-code-unresolvable for a code the provider refuses, and 503 when it cannot answer", async () => {
    const accountId = await fundedAccount(0);
    await expectProblem(await preview(accountId, { br_code: dynamicBrCode("expired", 100) }), 422, "br-code-unresolvable");
    const unavailable = await preview(accountId, { br_code: dynamicBrCode("unavailable", 100) });
    await expectProblem(unavailable, 503, "unavailable");
    expect(unavailable.headers.get("retry-after")).toBe("5");
  });

  it("refuses a body without br_code, or with other fields", async () => {
    const accountId = await fundedAccount(0);
    await expectValidationProblem(await preview(accountId, {}), "br_code");
    await expectValidationProblem(await preview(accountId, { br_code: "x", amount_cents: 1 }), "");
  });

  it("answers 403 for a token whose account does not exist, before asking the provider", async () => {
    await expectProblem(await preview(uniqueAccountId("ghost"), { br_code: dynamicBrCode("cobv-1", 100) }), 403, "forbidden");
  });
});
