// The Idempotency-Key matrix of POST /v1/transfers (CONTRACT §2): replays are byte-identical,
// a reused key with another body is 422, keys are per account, malformed keys are 400, and
// concurrent requests with one key create exactly one transfer.
import { describe, expect, it } from "vitest";
import { transferSchema } from "../../src/contract/schemas.ts";
import { idempotencyKeyLengthMax } from "../../src/http/idempotency-key.ts";
import { call, clientHeaders, createTransfer, fundedAccount, waitForFinalState } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { expectJson, expectProblem, expectValidationProblem, footprint, validTransfer } from "./helpers.ts";

const pool = filePool(2);

async function post(accountId: string, body: unknown, idempotencyKey?: string): Promise<Response> {
  const extra: Record<string, string> = idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey };
  return call("/v1/transfers", { method: "POST", headers: await clientHeaders(accountId, extra), body: JSON.stringify(body) });
}

async function transfersWithKey(accountId: string, idempotencyKey: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM transfers WHERE account_id = $1 AND idempotency_key = $2", [
    accountId,
    idempotencyKey,
  ]);
  return Number(rows[0]?.n);
}

describe("replays", () => {
  it("answers the same key and body with the first response, byte for byte, marked Idempotent-Replayed", async () => {
    const accountId = await fundedAccount(100_000);
    const key = crypto.randomUUID();
    const first = await post(accountId, validTransfer, key);
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const firstText = await first.text();
    transferSchema.parse(JSON.parse(firstText));

    const second = await post(accountId, validTransfer, key);
    expect(second.status).toBe(202);
    expect(second.headers.get("content-type")).toBe("application/json");
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await second.text()).toBe(firstText);
    expect(await transfersWithKey(accountId, key)).toBe(1);
  });

  it("answers a replay after the transfer has moved on with its first response, not the transfer as it is now", async () => {
    const accountId = await fundedAccount(100_000);
    const key = crypto.randomUUID();
    const firstText = await (await post(accountId, validTransfer, key)).text();
    const first = transferSchema.parse(JSON.parse(firstText));
    expect(first.state).toBe("funds_reserved");
    expect((await waitForFinalState(accountId, first.id)).state).toBe("completed");
    const replay = await post(accountId, validTransfer, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.text()).toBe(firstText);
  });

  it("treats the same request in another spelling (CPF punctuation, email case) as a replay", async () => {
    const accountId = await fundedAccount(100_000);
    const cpfKey = crypto.randomUUID();
    const first = await (await post(accountId, { ...validTransfer, pix_key: "100.000.001-08" }, cpfKey)).text();
    const again = await post(accountId, { ...validTransfer, pix_key: "10000000108" }, cpfKey);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(first);

    const emailKey = crypto.randomUUID();
    const email = { amount_cents: 100, pix_key: "Maria@Example.com", pix_key_type: "email" };
    const firstEmail = await (await post(accountId, email, emailKey)).text();
    const againEmail = await post(accountId, { ...email, pix_key: "maria@example.com" }, emailKey);
    expect(againEmail.headers.get("idempotent-replayed")).toBe("true");
    expect(await againEmail.text()).toBe(firstEmail);
  });

  it("answers 422 idempotency-key-reused to the same key with another body, and writes nothing", async () => {
    const accountId = await fundedAccount(100_000);
    const key = crypto.randomUUID();
    const first = await expectJson(await post(accountId, validTransfer, key), 202, transferSchema);
    const before = await footprint(pool, accountId);
    for (const changed of [
      { ...validTransfer, amount_cents: validTransfer.amount_cents + 1 },
      { ...validTransfer, description: "outra coisa" },
      { ...validTransfer, description: null },
      { amount_cents: validTransfer.amount_cents, pix_key: "maria@example.com", pix_key_type: "email" },
    ]) {
      const problem = await expectProblem(await post(accountId, changed, key), 422, "idempotency-key-reused");
      expect(problem.type).toMatch(/\/idempotency-key-reused$/);
    }
    expect(await footprint(pool, accountId)).toMatchObject({ transfers: before.transfers, holds: before.holds });
    expect(await transfersWithKey(accountId, key)).toBe(1);
    const stillFirst = await call(`/v1/transfers/${first.id}`, { headers: await clientHeaders(accountId) });
    expect((await expectJson(stillFirst, 200, transferSchema)).amount_cents).toBe(validTransfer.amount_cents);
  });

  it("scopes keys to the account: the same key from another account creates another transfer", async () => {
    const [alice, bob] = await Promise.all([fundedAccount(100_000), fundedAccount(100_000)]);
    const key = `shared-${crypto.randomUUID()}`;
    const fromAlice = await post(alice, validTransfer, key);
    const fromBob = await post(bob, validTransfer, key);
    expect(fromBob.headers.get("idempotent-replayed")).toBeNull();
    const a = await expectJson(fromAlice, 202, transferSchema);
    const b = await expectJson(fromBob, 202, transferSchema);
    expect(b.id).not.toBe(a.id);
    expect(await transfersWithKey(alice, key)).toBe(1);
    expect(await transfersWithKey(bob, key)).toBe(1);
  });
});

describe("malformed keys", () => {
  it("answers 400 to a request without Idempotency-Key, naming the header, and writes nothing", async () => {
    const accountId = await fundedAccount(100_000);
    const before = await footprint(pool, accountId);
    await expectValidationProblem(await post(accountId, validTransfer), "Idempotency-Key");
    await expectValidationProblem(await post(accountId, validTransfer, ""), "Idempotency-Key");
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it.each([
    ["256 characters", "k".repeat(idempotencyKeyLengthMax + 1)],
    ["a control character", "key\u0001one"],
    ["DEL", "key\u007f"],
    ["a tab inside", "key\tone"],
  ])("answers 400 to a key of %s and writes nothing", async (_label, key) => {
    const accountId = await fundedAccount(100_000);
    const before = await footprint(pool, accountId);
    await expectValidationProblem(await post(accountId, validTransfer, key), "Idempotency-Key");
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it("accepts a key of exactly 255 printable characters, spaces and symbols included", async () => {
    const accountId = await fundedAccount(100_000);
    // Not starting or ending with a space: HTTP strips those from header values.
    const key = `a ~!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}`.padEnd(idempotencyKeyLengthMax, "x");
    expect(key).toHaveLength(255);
    const response = await createTransfer(accountId, validTransfer, key);
    await expectJson(response, 202, transferSchema);
    expect(await transfersWithKey(accountId, key)).toBe(1);
  });
});

describe("concurrency", () => {
  it("creates exactly one transfer for 50 concurrent requests with one key, and every answer names it", async () => {
    const accountId = await fundedAccount(100_000);
    const key = crypto.randomUUID();
    const headers = await clientHeaders(accountId, { "idempotency-key": key });
    const body = JSON.stringify(validTransfer);
    const responses = await Promise.all(Array.from({ length: 50 }, () => call("/v1/transfers", { method: "POST", headers, body })));

    const answers = await Promise.all(
      responses.map(async (r) => ({ status: r.status, replayed: r.headers.get("idempotent-replayed"), text: await r.text() })),
    );
    for (const answer of answers) expect([202, 409]).toContain(answer.status);
    const accepted = answers.filter((a) => a.status === 202);
    const ids = new Set(accepted.map((a) => transferSchema.parse(JSON.parse(a.text)).id));
    expect(ids.size).toBe(1);
    // One request created it; every other 202 is the replay of that first response, byte for byte.
    expect(accepted.filter((a) => a.replayed === null)).toHaveLength(1);
    expect(new Set(accepted.map((a) => a.text)).size).toBe(1);
    expect(await transfersWithKey(accountId, key)).toBe(1);
    expect(await footprint(pool, accountId)).toMatchObject({ transfers: 1, holds: 1 });
  });
});
