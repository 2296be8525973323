// Trusted recipients through the client API (CONTRACT §2): asked for (202, pending until
// TRUSTED_RECIPIENT_DELAY_MS later), asked again (200, as it is), listed, removed at once (204,
// then 404), keys normalised as a transfer's, at most 50 per account even under concurrency, and
// bad input refused with 400 writing nothing. What an active one exempts from: test/limits/.
import { describe, expect, it } from "vitest";
import { trustedRecipientListSchema, trustedRecipientSchema } from "../../src/contract/schemas.ts";
import { trustedRecipientsPerAccountMax } from "../../src/limits/trusted-recipient-bounds.ts";
import { call, clientHeaders, fundedAccount } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";
import { filePool } from "../support/pool-test.ts";
import { listTrusted, putTrusted, removeTrusted, trustedCount, trustedDelayMs } from "../support/trusted.ts";
import { expectJson, expectProblem, expectValidationProblem } from "./helpers.ts";

const pool = filePool(2);

describe("PUT /v1/trusted-recipients/:key", () => {
  it("answers 202 pending, active TRUSTED_RECIPIENT_DELAY_MS after the request, the key normalised", async () => {
    const accountId = await fundedAccount(0);
    const beforeMs = Date.now();
    const asked = await expectJson(await putTrusted(accountId, "100.000.001-08", "cpf", { name: "Babá" }), 202, trustedRecipientSchema);
    const afterMs = Date.now();
    expect(asked).toMatchObject({ pix_key: "10000000108", pix_key_type: "cpf", name: "Babá", state: "pending" });
    const effectiveMs = Date.parse(asked.effective_at);
    expect(effectiveMs).toBeGreaterThanOrEqual(beforeMs + trustedDelayMs - 1);
    expect(effectiveMs).toBeLessThanOrEqual(afterMs + trustedDelayMs + 1);
    expect(await expectJson(await listTrusted(accountId), 200, trustedRecipientListSchema)).toEqual({ data: [asked] });
  });

  it("answers 200 with the recipient as it is when the key is already there (by its normalised form), renaming it when a name is given", async () => {
    const accountId = await fundedAccount(0);
    const first = await expectJson(await putTrusted(accountId, "Fulano.Silva@Example.COM", "email"), 202, trustedRecipientSchema);
    expect(first).toMatchObject({ pix_key: "fulano.silva@example.com", name: null });
    const again = await expectJson(await putTrusted(accountId, "fulano.silva@example.com", "email", {}), 200, trustedRecipientSchema);
    expect(again).toEqual(first);
    // A new name does not restart the wait.
    const renamed = await expectJson(
      await putTrusted(accountId, "fulano.silva@example.com", "email", { name: "Fulano" }),
      200,
      trustedRecipientSchema,
    );
    expect(renamed).toEqual({ ...first, name: "Fulano" });
    expect(await trustedCount(pool, accountId)).toBe(1);
  });

  it("creates one recipient for concurrent requests with one key", async () => {
    const accountId = await fundedAccount(0);
    const answers = await Promise.all(Array.from({ length: 8 }, () => putTrusted(accountId, "+5511987654321", "phone")));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 202]);
    expect(await trustedCount(pool, accountId)).toBe(1);
  });

  it(`keeps at most ${trustedRecipientsPerAccountMax} per account under concurrent requests: the rest 422, nothing written`, async () => {
    const accountId = await fundedAccount(0);
    const already = trustedRecipientsPerAccountMax - 3;
    for (let i = 0; i < already; i += 10) {
      const batch = Array.from({ length: Math.min(10, already - i) }, (_, j) =>
        putTrusted(accountId, `known-${i + j}@example.com`, "email"),
      );
      expect((await Promise.all(batch)).map((a) => a.status)).toEqual(Array(Math.min(10, already - i)).fill(202));
    }
    const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => putTrusted(accountId, `racing-${i}@example.com`, "email")));
    expect(racing.filter((a) => a.status === 202)).toHaveLength(3);
    const refused = racing.filter((a) => a.status !== 202);
    expect(refused).toHaveLength(5);
    for (const answer of refused) await expectProblem(answer, 422, "too-many-trusted-recipients");
    expect(await trustedCount(pool, accountId)).toBe(trustedRecipientsPerAccountMax);
    // One already there is still answered; a removal makes room for one more.
    expect((await putTrusted(accountId, "known-0@example.com", "email")).status).toBe(200);
    expect((await removeTrusted(accountId, "known-0@example.com", "email")).status).toBe(204);
    expect((await putTrusted(accountId, "late@example.com", "email")).status).toBe(202);
  });

  it.each([
    ["a CPF with wrong check digits", "100.000.001-09", "cpf", undefined, "key"],
    ["a key that is not of its type", "not-an-email", "email", undefined, "key"],
    ["an unknown type", "100.000.001-08", "pix", undefined, "type"],
    ["an empty name", "100.000.001-08", "cpf", { name: "  " }, "name"],
    ["a name over 64 characters", "100.000.001-08", "cpf", { name: "n".repeat(65) }, "name"],
    ["a name with a control character", "100.000.001-08", "cpf", { name: "Ba\u0000bá" }, "name"],
    ["an unknown field", "100.000.001-08", "cpf", { nickname: "x" }, ""],
    ["a body that is not JSON", "100.000.001-08", "cpf", "{name:", ""],
  ])("refuses %s with 400, writing nothing", async (_label, key, type, body, field) => {
    const accountId = await fundedAccount(0);
    await expectValidationProblem(await putTrusted(accountId, key, type, body), field);
    expect(await trustedCount(pool, accountId)).toBe(0);
  });

  it("refuses a key without its type with 400, writing nothing", async () => {
    const accountId = await fundedAccount(0);
    const answer = await call("/v1/trusted-recipients/10000000108", { method: "PUT", headers: await clientHeaders(accountId) });
    await expectValidationProblem(answer, "type");
    expect(await trustedCount(pool, accountId)).toBe(0);
  });

  it("answers 403 for a token whose account does not exist", async () => {
    await expectProblem(await putTrusted(uniqueAccountId("ghost"), "100.000.001-08", "cpf"), 403, "forbidden");
    await expectProblem(await listTrusted(uniqueAccountId("ghost")), 403, "forbidden");
    await expectProblem(await removeTrusted(uniqueAccountId("ghost"), "100.000.001-08", "cpf"), 403, "forbidden");
  });
});

describe("GET and DELETE /v1/trusted-recipients", () => {
  it("lists an account's own recipients, oldest first, and no other account's", async () => {
    const accountId = await fundedAccount(0);
    const other = await fundedAccount(0);
    const first = await expectJson(await putTrusted(accountId, "123e4567-E89B-12d3-a456-426614174000", "evp"), 202, trustedRecipientSchema);
    const second = await expectJson(
      await putTrusted(accountId, "11.222.333/0001-81", "cnpj", { name: "Loja" }),
      202,
      trustedRecipientSchema,
    );
    await putTrusted(other, "529.982.247-25", "cpf");
    expect(await expectJson(await listTrusted(accountId), 200, trustedRecipientListSchema)).toEqual({ data: [first, second] });
    expect(second).toMatchObject({ pix_key: "11222333000181", pix_key_type: "cnpj" });
    expect(first.pix_key).toBe("123e4567-e89b-12d3-a456-426614174000");
  });

  it("removes one at once (204), then answers 404; another account's key is not found either", async () => {
    const accountId = await fundedAccount(0);
    const other = await fundedAccount(0);
    await putTrusted(accountId, "100.000.001-08", "cpf");
    expect((await removeTrusted(other, "10000000108", "cpf")).status).toBe(404);
    const removed = await removeTrusted(accountId, "10000000108", "cpf");
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe("");
    expect(await expectJson(await listTrusted(accountId), 200, trustedRecipientListSchema)).toEqual({ data: [] });
    await expectProblem(await removeTrusted(accountId, "100.000.001-08", "cpf"), 404, "not-found");
  });

  it("refuses a bad key or type on DELETE with 400", async () => {
    const accountId = await fundedAccount(0);
    await putTrusted(accountId, "100.000.001-08", "cpf");
    await expectValidationProblem(await removeTrusted(accountId, "100.000.001-09", "cpf"), "key");
    await expectValidationProblem(await removeTrusted(accountId, "100.000.001-08", "rg"), "type");
    expect(await trustedCount(pool, accountId)).toBe(1);
  });
});
