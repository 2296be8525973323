// Paying a Pix Copia e Cola through POST /v1/transfers (CONTRACT §2): a static code pays its key
// with its amount, a dynamic one is resolved by the sandbox provider first; bad codes and
// amounts that disagree are 400 and write nothing; the resource shows the code.
import { describe, expect, it } from "vitest";
import { transferSchema } from "../../src/contract/schemas.ts";
import { call, clientHeaders, fundedAccount, getBalance, sandboxPayment, waitForFinalState } from "../support/api.ts";
import { dynamicBrCode, staticBrCode, withWrongCrc } from "../support/br-codes.ts";
import { filePool } from "../support/pool-test.ts";
import { expectJson, expectProblem, expectValidationProblem, footprint, validTransfer } from "./helpers.ts";

const pool = filePool(2);

const startCents = 100_000;
const cpfCode = staticBrCode({ pixKey: "10000000108", pixKeyType: "cpf", amountCents: 1_990 });
const openCode = staticBrCode({ pixKey: "ana@example.com", pixKeyType: "email", amountCents: null });

async function post(accountId: string, body: unknown, idempotencyKey: string = crypto.randomUUID()): Promise<Response> {
  return call("/v1/transfers", {
    method: "POST",
    headers: await clientHeaders(accountId, { "idempotency-key": idempotencyKey }),
    body: JSON.stringify(body),
  });
}

describe("a static code", () => {
  it("pays the code's key with the code's amount when amount_cents is omitted, and the transfer shows the code", async () => {
    const accountId = await fundedAccount(startCents);
    const created = await expectJson(await post(accountId, { br_code: cpfCode, description: "padaria" }), 202, transferSchema);
    expect(created).toMatchObject({
      amount_cents: 1_990,
      pix_key: "10000000108",
      pix_key_type: "cpf",
      description: "padaria",
      br_code: cpfCode,
      merchant_name: "LOJA DA ANA",
      merchant_city: "SAO PAULO",
    });
    const final = await waitForFinalState(accountId, created.id);
    expect(final.state).toBe("completed");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: startCents - 1_990, held_cents: 0 });
  });

  it("accepts amount_cents equal to the code's", async () => {
    const accountId = await fundedAccount(startCents);
    const created = await expectJson(await post(accountId, { br_code: cpfCode, amount_cents: 1_990 }), 202, transferSchema);
    expect(created.amount_cents).toBe(1_990);
  });

  it("refuses amount_cents that differs from the code's with a 400 naming amount_cents, writing nothing", async () => {
    const accountId = await fundedAccount(startCents);
    const before = await footprint(pool, accountId);
    const problem = await expectValidationProblem(await post(accountId, { br_code: cpfCode, amount_cents: 2_000 }), "amount_cents");
    expect(problem.errors?.[0]?.message).toMatch(/1990/);
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it("requires amount_cents when the code carries none, and pays it when given", async () => {
    const accountId = await fundedAccount(startCents);
    const before = await footprint(pool, accountId);
    await expectValidationProblem(await post(accountId, { br_code: openCode }), "amount_cents");
    expect(await footprint(pool, accountId)).toEqual(before);
    const created = await expectJson(await post(accountId, { br_code: openCode, amount_cents: 750 }), 202, transferSchema);
    expect(created).toMatchObject({ amount_cents: 750, pix_key: "ana@example.com", pix_key_type: "email", br_code: openCode });
  });

  it("refuses a code with a wrong CRC as /invalid-br-code pointing at br_code, writing nothing", async () => {
    const accountId = await fundedAccount(startCents);
    const before = await footprint(pool, accountId);
    const problem = await expectProblem(await post(accountId, { br_code: withWrongCrc(cpfCode) }), 400, "invalid-br-code");
    expect(problem.errors?.[0]?.field).toBe("br_code");
    expect(problem.errors?.[0]?.message).toMatch(/^field 63: .*CRC/);
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it.each([
    ["empty", ""],
    ["not a code", "hello"],
    ["truncated", cpfCode.slice(0, 40)],
    ["over 512 characters", `${cpfCode}${"0".repeat(600)}`],
  ])("refuses a code that is %s as /invalid-br-code", async (_label, brCode) => {
    const accountId = await fundedAccount(startCents);
    const before = await footprint(pool, accountId);
    await expectProblem(await post(accountId, { br_code: brCode, amount_cents: 100 }), 400, "invalid-br-code");
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it("refuses br_code together with the key fields, naming them", async () => {
    const accountId = await fundedAccount(startCents);
    await expectValidationProblem(await post(accountId, { ...validTransfer, br_code: cpfCode }), "pix_key");
  });

  it("replays the same key and body with the first response, and refuses another amount under that key", async () => {
    const accountId = await fundedAccount(startCents);
    const key = crypto.randomUUID();
    const first = await post(accountId, { br_code: openCode, amount_cents: 500 }, key);
    expect(first.status).toBe(202);
    const firstText = await first.text();
    const again = await post(accountId, { br_code: `  ${openCode} `, amount_cents: 500 }, key);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(firstText);
    await expectProblem(await post(accountId, { br_code: openCode, amount_cents: 501 }, key), 422, "idempotency-key-reused");
  });
});

describe("a transfer to a key", () => {
  it("shows br_code, merchant_name and merchant_city as null", async () => {
    const accountId = await fundedAccount(startCents);
    const created = await expectJson(await post(accountId, validTransfer), 202, transferSchema);
    expect(created).toMatchObject({ br_code: null, merchant_name: null, merchant_city: null });
  });
});

describe("a dynamic code, resolved by the sandbox provider", () => {
  it("is paid as the code with the amount it resolved to, and completes", async () => {
    const accountId = await fundedAccount(startCents);
    const code = dynamicBrCode("cobranca-123", 4_321);
    const created = await expectJson(await post(accountId, { br_code: code }), 202, transferSchema);
    expect(created).toMatchObject({ amount_cents: 4_321, pix_key_type: "evp", br_code: code, merchant_name: null, merchant_city: null });
    const final = await waitForFinalState(accountId, created.id);
    expect(final.state).toBe("completed");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: startCents - 4_321, held_cents: 0 });
    expect(await sandboxPayment(created.id)).toMatchObject({ made: true, send_calls: 1 });
  });

  it("keeps the sandbox behaviour of the key it resolves to: reject@ is compensated, the hold released", async () => {
    const accountId = await fundedAccount(startCents);
    const created = await expectJson(await post(accountId, { br_code: dynamicBrCode("reject@sandbox.test", 1_000) }), 202, transferSchema);
    expect(created.pix_key).toBe("reject@sandbox.test");
    const final = await waitForFinalState(accountId, created.id);
    expect(final).toMatchObject({ state: "compensated", failure_reason: "provider_rejected", failure_code: "invalid_key" });
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: startCents, held_cents: 0 });
  });

  it("refuses amount_cents that differs from the resolved amount, writing nothing", async () => {
    const accountId = await fundedAccount(startCents);
    const before = await footprint(pool, accountId);
    await expectValidationProblem(
      await post(accountId, { br_code: dynamicBrCode("cobranca-9", 1_000), amount_cents: 999 }),
      "amount_cents",
    );
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it("answers 422 /br-code-unresolvable when the provider refuses the code, writing nothing", async () => {
    const accountId = await fundedAccount(startCents);
    const before = await footprint(pool, accountId);
    const problem = await expectProblem(await post(accountId, { br_code: dynamicBrCode("expired", 1_000) }), 422, "br-code-unresolvable");
    expect(problem.errors?.[0]?.field).toBe("br_code");
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it("answers 503 with Retry-After when the provider cannot resolve it now, writing nothing", async () => {
    const accountId = await fundedAccount(startCents);
    const before = await footprint(pool, accountId);
    const response = await post(accountId, { br_code: dynamicBrCode("unavailable", 1_000) });
    await expectProblem(response, 503, "unavailable");
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it("replays the same key and body with the first response", async () => {
    const accountId = await fundedAccount(startCents);
    const key = crypto.randomUUID();
    const code = dynamicBrCode("cobranca-replay", 2_000);
    const first = await post(accountId, { br_code: code }, key);
    expect(first.status).toBe(202);
    const firstText = await first.text();
    const again = await post(accountId, { br_code: code }, key);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(firstText);
    await expectProblem(await post(accountId, { br_code: code, amount_cents: 2_000 }, key), 422, "idempotency-key-reused");
  });
});
