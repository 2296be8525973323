// What a contestation refuses, and how it replays (CONTRACT §2 "Contestations"): bad input is a
// 400 that writes nothing; others' transfers are 404; a transfer that is not completed, wholly
// returned, or already contested is 409; the Idempotency-Key replays as for transfers; cancel
// works while open or submitted and is 409 after.
import { describe, expect } from "vitest";
import { call, clientHeaders, finishedTransfer, fundedAccount, type TransferJson, waitForReturned } from "../support/api.ts";
import { type ContestationJson, claim, contest, contested, getContestation, waitForContestation } from "../support/contestations.ts";
import { poolTest } from "../support/pool-test.ts";

const it = poolTest(2);

async function completed(accountId: string, pixKey = `payee-${crypto.randomUUID().slice(0, 8)}@example.com`): Promise<TransferJson> {
  const final = await finishedTransfer(accountId, { amount_cents: 1_000, pix_key: pixKey, pix_key_type: "email" });
  expect(final.state).toBe("completed");
  return final;
}

async function cancel(accountId: string, id: string): Promise<Response> {
  return call(`/v1/contestations/${id}/cancel`, { method: "POST", headers: await clientHeaders(accountId) });
}

describe("contestation refusals", () => {
  it("refuses bad input with a 400 problem and writes nothing", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const transfer = await completed(accountId);
    const bad: unknown[] = [
      { reason: "regret", details: "x" },
      { reason: "fraud", details: "" },
      { reason: "fraud", details: "x".repeat(2001) },
      { reason: "fraud", details: "nul\u0000inside" },
      { reason: "fraud", details: "line\nbreak" },
      { reason: "fraud" },
      { details: "no reason" },
      { reason: "fraud", details: "ok", extra: true },
      "not an object",
    ];
    for (const body of bad) {
      const response = await contest(accountId, transfer.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
    }
    const noKey = await call(`/v1/transfers/${transfer.id}/contestations`, {
      method: "POST",
      headers: await clientHeaders(accountId),
      body: JSON.stringify(claim),
    });
    expect(noKey.status).toBe(400);
    const malformed = await call(`/v1/transfers/${transfer.id}/contestations`, {
      method: "POST",
      headers: await clientHeaders(accountId, { "idempotency-key": "k" }),
      body: "{",
    });
    expect(malformed.status).toBe(400);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM contestations WHERE transfer_id = $1", [transfer.id]);
    expect(rows[0]).toEqual({ n: 0 });
    // The largest details are fine.
    expect((await contest(accountId, transfer.id, { reason: "fraud", details: "x".repeat(2000) })).status).toBe(201);
  });

  it("answers 404 for another account's transfer or contestation, and for one that does not exist", async () => {
    const owner = await fundedAccount(10_000);
    const stranger = await fundedAccount(0);
    const transfer = await completed(owner);
    expect((await contest(stranger, transfer.id)).status).toBe(404);
    expect((await contest(owner, crypto.randomUUID())).status).toBe(404);
    expect((await contest(owner, "not-a-uuid")).status).toBe(404);
    const mine = await contested(owner, transfer.id);
    expect((await call(`/v1/contestations/${mine.id}`, { headers: await clientHeaders(stranger) })).status).toBe(404);
    expect((await call(`/v1/transfers/${transfer.id}/contestations`, { headers: await clientHeaders(stranger) })).status).toBe(404);
    expect((await cancel(stranger, mine.id)).status).toBe(404);
    expect((await call(`/v1/contestations/${crypto.randomUUID()}`, { headers: await clientHeaders(owner) })).status).toBe(404);
  });

  it("answers 409 for a transfer that did not complete, and while another contestation is not final", async () => {
    const accountId = await fundedAccount(10_000);
    const refused = await finishedTransfer(accountId, { amount_cents: 500, pix_key: "reject@sandbox.test", pix_key_type: "email" });
    expect(refused.state).toBe("compensated");
    expect((await contest(accountId, refused.id)).status).toBe(409);

    const transfer = await completed(accountId);
    const first = await contested(accountId, transfer.id);
    const second = await contest(accountId, transfer.id);
    expect(second.status).toBe(409);
    expect(second.headers.get("content-type")).toContain("application/problem+json");
    // Once it is final (rejected here), the transfer may be contested again.
    await waitForContestation(accountId, first.id, (c) => c.decided_at !== null);
    expect((await contest(accountId, transfer.id)).status).toBe(201);
  });

  it("answers 409 for a transfer whose whole amount came back", async () => {
    const accountId = await fundedAccount(10_000);
    const transfer = await completed(accountId, "returned@sandbox.test");
    await waitForReturned(accountId, transfer.id, 1_000);
    expect((await contest(accountId, transfer.id)).status).toBe(409);
  });

  it("replays the first answer for the same Idempotency-Key and body; 422 for another body", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const transfer = await completed(accountId);
    const key = crypto.randomUUID();
    const first = await contest(accountId, transfer.id, claim, key);
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    const replay = await contest(accountId, transfer.id, claim, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.text()).toBe(firstBody);
    const reused = await contest(accountId, transfer.id, { ...claim, details: "something else" }, key);
    expect(reused.status).toBe(422);
    expect((await reused.json<{ type: string }>()).type).toMatch(/\/idempotency-key-reused$/);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM contestations WHERE transfer_id = $1", [transfer.id]);
    expect(rows[0]).toEqual({ n: 1 });
  });

  it("creates one contestation from concurrent requests, with one key or with several", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const oneKey = await completed(accountId);
    const key = crypto.randomUUID();
    const sameKey = await Promise.all(Array.from({ length: 5 }, () => contest(accountId, oneKey.id, claim, key)));
    expect(sameKey.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(await Promise.all(sameKey.map(async (r) => (await r.json<ContestationJson>()).id)));
    expect(ids.size).toBe(1);

    const manyKeys = await completed(accountId);
    const statuses = (await Promise.all(Array.from({ length: 5 }, () => contest(accountId, manyKeys.id)))).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM contestations WHERE transfer_id = ANY($1)", [
      [oneKey.id, manyKeys.id],
    ]);
    expect(rows[0]).toEqual({ n: 2 });
  });

  it("cancels while open or submitted (200, canceled), then 409; lists the transfer's contestations", async () => {
    const accountId = await fundedAccount(10_000);
    const transfer = await completed(accountId);
    const opened = await contested(accountId, transfer.id);
    const canceled = await cancel(accountId, opened.id);
    expect(canceled.status).toBe(200);
    expect(await canceled.json<ContestationJson>()).toMatchObject({ id: opened.id, state: "canceled", decided_at: null });
    expect((await cancel(accountId, opened.id)).status).toBe(409);
    // Canceled stays canceled: the object asks the provider nothing more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await getContestation(accountId, opened.id)).state).toBe("canceled");

    const listed = await call(`/v1/transfers/${transfer.id}/contestations`, { headers: await clientHeaders(accountId) });
    expect(listed.status).toBe(200);
    expect((await listed.json<{ data: ContestationJson[] }>()).data.map((c) => [c.id, c.state])).toEqual([[opened.id, "canceled"]]);

    const decidedOne = await contested(accountId, transfer.id);
    await waitForContestation(accountId, decidedOne.id, (c) => c.decided_at !== null);
    expect((await cancel(accountId, decidedOne.id)).status).toBe(409);
  });
});
