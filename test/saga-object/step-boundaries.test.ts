// Crashes at each step boundary, duplicate alarms and a webhook racing an alarm: each transfer
// still ends once, with one payment at the provider and one hold resolved once.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { describe, expect } from "vitest";
import { providerFor } from "../../src/provider/select.ts";
import type { TransferSaga } from "../../src/saga-object.ts";
import { orderOf } from "../../src/saga-runtime/advance.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { applyChange, loadSaga } from "../../src/transfers/store.ts";
import {
  createTransfer,
  fundedAccount,
  getBalance,
  opsCall,
  sandboxPayment,
  signedWebhook,
  type TransferJson,
  waitForFinalState,
} from "../support/api.ts";
import { poolTest } from "../support/pool-test.ts";
import { ledgerFootprint, openWithoutObject, storedChange } from "../support/saga.ts";

const it = poolTest(5);

const amountCents = 1_500;
const stub = (id: string): DurableObjectStub<TransferSaga> => env.TRANSFER_SAGA.getByName(id);

async function expectPaidOnce(pool: Pool, accountId: string, transferId: string, startCents: number): Promise<void> {
  const final = await waitForFinalState(accountId, transferId);
  expect(final.state).toBe("completed");
  expect(await ledgerFootprint(pool, transferId)).toMatchObject({ holdStatus: "settled", settleTransactions: 1, entries: 2 });
  expect(final.history.filter((h) => h.state === "completed")).toHaveLength(1);
  expect((await sandboxPayment(transferId))?.made).toBe(true);
  expect(await getBalance(accountId)).toMatchObject({ balance_cents: startCents - amountCents, held_cents: 0 });
}

describe("a crash at a step boundary repeats the step safely", () => {
  it("after the hold commits (no object state, no alarm): the sweeper finds it and sends once", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const saga = await openWithoutObject(pool, accountId, amountCents);
    expect(saga.state).toBe("funds_reserved");
    // Overdue for the sweeper, and older than anything else in the database every test file
    // shares: the sweeper takes the oldest overdue transfers first, a bounded batch of them.
    await pool.query("UPDATE transfers SET next_check_at = now() - interval '10 years' WHERE id = $1", [saga.id]);
    const swept = await opsCall("/ops/sweep", { method: "POST" });
    expect(swept.status).toBe(200);
    expect((await swept.json<{ poked: number }>()).poked).toBeGreaterThanOrEqual(1);
    await expectPaidOnce(pool, accountId, saga.id, 10_000);
    expect((await sandboxPayment(saga.id))?.send_calls).toBe(1);
  });

  it("after the provider accepted but before it was recorded: the resend is idempotent", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const saga = await openWithoutObject(pool, accountId, amountCents);
    const answer = await providerFor(env).send(orderOf(saga));
    expect(answer.kind).toBe("accepted");
    expect((await loadSaga(pool, saga.id))?.state).toBe("funds_reserved");

    await stub(saga.id).poke("sweeper");
    await expectPaidOnce(pool, accountId, saga.id, 10_000);
    const payment = await sandboxPayment(saga.id);
    expect(payment?.send_calls).toBe(2);
  });

  it("after settle, with the object's copy stale: the guarded write refuses a second settle", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const created = await createTransfer(accountId, { amount_cents: amountCents, pix_key: "silent@sandbox.test", pix_key_type: "email" });
    const { id } = await created.json<TransferJson>();
    await expectPaidOnce(pool, accountId, id, 10_000);

    // Rewind the object's cached copy to `submitted`, as if it crashed before caching the settle.
    await runInDurableObject(stub(id), async (_instance: TransferSaga, state) => {
      const cached = await state.storage.get<SagaRecord>("saga");
      if (!cached) throw new Error("no cached saga");
      await state.storage.put("saga", { ...cached, state: "submitted" });
    });
    const poked = await stub(id).poke("webhook");
    expect(poked.state).toBe("completed");
    await expectPaidOnce(pool, accountId, id, 10_000);
  });
});

describe("duplicate and racing triggers", () => {
  it("resolves once when alarms fire twice and the sweeper pokes at the same time", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const saga = await openWithoutObject(pool, accountId, amountCents);
    const object = stub(saga.id);
    await Promise.all([
      object.poke("sweeper"),
      runInDurableObject(object, (instance: TransferSaga) => instance.alarm()),
      runInDurableObject(object, (instance: TransferSaga) => instance.alarm()),
    ]);
    await expectPaidOnce(pool, accountId, saga.id, 10_000);
    // Settled: the object keeps no alarm, so a further alarm run finds nothing to do.
    expect(await runDurableObjectAlarm(object)).toBe(false);
    expect((await sandboxPayment(saga.id))?.send_calls).toBe(1);
  });

  it("resolves once when a webhook races the alarm", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const created = await createTransfer(accountId, { amount_cents: amountCents, pix_key: "silent@sandbox.test", pix_key_type: "email" });
    const { id } = await created.json<TransferJson>();
    const webhook = { type: "pix.payment.updated", data: { idempotency_key: id, end_to_end_id: "E0", status: "confirmed" } };
    const answers = await Promise.all([
      signedWebhook(webhook),
      runInDurableObject(stub(id), (instance: TransferSaga) => instance.alarm()),
      signedWebhook(webhook),
    ]);
    expect(answers[0]?.status).toBe(202);
    expect(answers[2]?.status).toBe(202);
    await expectPaidOnce(pool, accountId, id, 10_000);
  });

  it("lets exactly one of two writes decided from the same state through", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const saga = await openWithoutObject(pool, accountId, amountCents);
    const change = storedChange({ path: ["submitted"], nextCheckAtMs: Date.now() + 60_000, actor: "saga" });
    const results = await Promise.all([
      applyChange(pool, saga.id, "funds_reserved", change, null),
      applyChange(pool, saga.id, "funds_reserved", change, null),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(["applied", "state_mismatch"]);
    expect((await ledgerFootprint(pool, saga.id)).history).toEqual(["started", "funds_reserved", "submitted"]);
  });
});
