// The database connection dies around a COMMIT. Killed before it: nothing happened, the step
// runs again. The reply lost after it: the change happened but the caller saw an error, and
// the next attempt finds it by looking it up (the guarded transfer_apply answers state_mismatch,
// the ledger answers already_*, transfer_open answers the replay), never by doing it twice.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { fundedAccount, getBalance, opsCall, sandboxPayment } from "../support/api.ts";
import { appConnections, dbFaultsInjected, injectDbFault, killSagaBackends, sandboxKeys } from "../support/faults.ts";
import { ledgerFootprint } from "../support/saga.ts";
import { expectInvariants } from "./support/checks.ts";
import { createWithRetries } from "./support/clients.ts";
import { drain } from "./support/drain.ts";
import { openWithoutObject as openWithoutObjectIn } from "./support/open.ts";
import { faultedFilePool } from "./support/pool.ts";

const pool = faultedFilePool(4);

const amountCents = 2_000;
const startCents = 10_000;

function openWithoutObject(accountId: string): Promise<SagaRecord> {
  return openWithoutObjectIn(pool, { accountId, amountCents, pixKey: sandboxKeys.silent.pix_key, pixKeyType: "email" });
}

async function stateOf(transferId: string): Promise<string> {
  const { rows } = await pool.query<{ state: string }>("SELECT state FROM transfers WHERE id = $1", [transferId]);
  return rows[0]?.state ?? "missing";
}

async function settleOnce(accountId: string, transferId: string): Promise<void> {
  // Rescue early: a saga that waited for the sweeper past its deadline would (rightly) go to review.
  const drained = await drain(pool, [transferId], { timeoutMs: 20_000, rescueAfterMs: 500, label: "commit_outcome" });
  expect(drained.stuck).toEqual([]);
  expect(await stateOf(transferId)).toBe("completed");
  expect(await ledgerFootprint(pool, transferId)).toMatchObject({ holdStatus: "settled", settleTransactions: 1, entries: 2 });
  expect(await getBalance(accountId)).toMatchObject({ balance_cents: startCents - amountCents, held_cents: 0 });
  await expectInvariants(pool, { accountIds: [accountId] }, "after the commit faults");
}

describe("the reply to a COMMIT is lost", () => {
  it("after `submitted` was written: the resend is answered by the provider's record and the write by state_mismatch", async () => {
    const accountId = await fundedAccount(startCents);
    const saga = await openWithoutObject(accountId);
    const before = await dbFaultsInjected();
    await injectDbFault({ kind: "drop_reply", statementPattern: "transfer_apply", count: 1 });
    await env.TRANSFER_SAGA.getByName(saga.id).poke("sweeper");
    // The write committed although the object saw its connection die.
    expect(await stateOf(saga.id)).toBe("submitted");
    expect((await dbFaultsInjected()).drop_reply ?? 0).toBe((before.drop_reply ?? 0) + 1);

    await settleOnce(accountId, saga.id);
    const { rows } = await pool.query<{ to_state: string }>("SELECT to_state FROM transfer_history WHERE transfer_id = $1 ORDER BY id", [
      saga.id,
    ]);
    expect(rows.map((r) => r.to_state)).toEqual(["started", "funds_reserved", "submitted", "completed"]);
    // The order went out twice under one idempotency key; the provider made one payment.
    const payment = await sandboxPayment(saga.id);
    expect(payment).toMatchObject({ made: true, send_calls: 2 });
  });

  it("after the settle committed: the ledger settles once and the object adopts `completed`", async () => {
    const accountId = await fundedAccount(startCents);
    const saga = await openWithoutObject(accountId);
    const object = env.TRANSFER_SAGA.getByName(saga.id);
    await object.poke("sweeper");
    expect(await stateOf(saga.id)).toBe("submitted");
    // The object's first status check (its alarm, SAGA_FIRST_CHECK_MS later) settles: lose that reply.
    await injectDbFault({ kind: "drop_reply", statementPattern: "transfer_apply", count: 1 });
    while ((await stateOf(saga.id)) === "submitted") await sleep(10);
    expect(await stateOf(saga.id)).toBe("completed");
    // The object still believes `submitted` (its fault retry comes a second later); its next step
    // looks the settle up instead of settling again.
    expect((await object.get())?.state).toBe("submitted");
    expect((await object.poke("webhook")).state).toBe("completed");
    await settleOnce(accountId, saga.id);
  });

  it("after transfer_open committed: the client's retry with the same key gets the first response", async () => {
    const accountId = await fundedAccount(startCents);
    await injectDbFault({ kind: "drop_reply", statementPattern: "transfer_open", count: 1 });
    const created = await createWithRetries(accountId, { amount_cents: amountCents, ...sandboxKeys.happy });
    expect(created).toMatchObject({ status: 202, replayed: true });
    expect(created.serverErrors).toBeGreaterThanOrEqual(1);
    const id = created.transfer?.id ?? "";
    expect(created.transfer?.state).toBe("funds_reserved");
    const { rows } = await pool.query<{ n: string }>("SELECT count(*)::text AS n FROM transfers WHERE account_id = $1", [accountId]);
    expect(rows[0]?.n).toBe("1");
    // The object died before arming its alarm: the sweeper is what sends it.
    await settleOnce(accountId, id);
  });

  it("after a credit committed: the operator's retry answers already_credited and credits once", async () => {
    const accountId = await fundedAccount(0);
    await injectDbFault({ kind: "drop_reply", statementPattern: "ops_credit", count: 1, applicationNames: appConnections });
    const credit = () =>
      opsCall(`/ops/accounts/${accountId}/credits`, {
        method: "POST",
        body: JSON.stringify({ amount_cents: 5_000, idempotency_key: "chaos-credit" }),
      });
    const first = await credit();
    expect(first.status).toBeGreaterThanOrEqual(500);
    await first.body?.cancel();
    const retried = await credit();
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(await retried.json()).toMatchObject({ balance_cents: 5_000 });
    await expectInvariants(pool, { accountIds: [accountId] }, "after a lost credit reply");
  });
});

describe("the connection dies before COMMIT", () => {
  it("a statement cut before it reached Postgres changed nothing and runs again", async () => {
    const accountId = await fundedAccount(startCents);
    const saga = await openWithoutObject(accountId);
    await injectDbFault({ kind: "cut_before", statementPattern: "transfer_apply", count: 1 });
    await env.TRANSFER_SAGA.getByName(saga.id).poke("sweeper");
    expect(await stateOf(saga.id)).toBe("funds_reserved");
    await settleOnce(accountId, saga.id);
    expect((await sandboxPayment(saga.id))?.send_calls).toBe(2);
  });

  it("a backend killed while its write waits on a lock is rolled back and retried", async () => {
    const accountId = await fundedAccount(startCents);
    const saga = await openWithoutObject(accountId);
    const blocker = await pool.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT 1 FROM transfers WHERE id = $1 FOR UPDATE", [saga.id]);
      const poked = env.TRANSFER_SAGA.getByName(saga.id).poke("sweeper");
      let killed = 0;
      for (let i = 0; i < 200 && killed === 0; i++) {
        await sleep(20);
        killed = await killSagaBackends(pool, { waitingOnLock: true });
      }
      expect(killed).toBe(1);
      await poked;
      await blocker.query("ROLLBACK");
    } finally {
      blocker.release();
    }
    expect(await stateOf(saga.id)).toBe("funds_reserved");
    await settleOnce(accountId, saga.id);
  });
});
