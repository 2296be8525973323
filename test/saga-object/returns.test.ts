// Money that comes back after a completed Pix, end to end: the sandbox's returned@ and
// partial-return@ keys, its webhook after each return, the saga's poke asking for returns, and
// transfer_return_apply crediting each return once, whoever reports it.
import { env } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { describe, expect } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import { sleep } from "../../src/lib/sleep.ts";
import { providerFor } from "../../src/provider/select.ts";
import { returnsWatchMs } from "../../src/saga/returns.ts";
import { orderOf, type SagaPorts } from "../../src/saga-runtime/advance.ts";
import { watchReturns } from "../../src/saga-runtime/returns.ts";
import { transferReturnApply } from "../../src/transfers/returns.ts";
import { loadSaga } from "../../src/transfers/store.ts";
import { finishedTransfer, fundedAccount, getBalance, sandboxPayment, type TransferJson, waitForReturned } from "../support/api.ts";
import { checkInvariants } from "../support/invariants.ts";
import { poolTest } from "../support/pool-test.ts";

const it = poolTest(6);

const startCents = 100_000;

async function completedTransfer(accountId: string, pixKey: string, amountCents: number): Promise<TransferJson> {
  const final = await finishedTransfer(accountId, { amount_cents: amountCents, pix_key: pixKey, pix_key_type: "email" });
  expect(final.state).toBe("completed");
  return final;
}

/** Every return of the transfer with the number of ledger transactions and entries behind it. */
async function creditsOf(pool: Pool, transferId: string): Promise<{ id: string; transactions: number; entries: number; sum: number }[]> {
  const { rows } = await pool.query<{ id: string; transactions: string; entries: string; sum: string }>(
    `SELECT r.id,
            (SELECT count(*) FROM ledger_transactions lt WHERE lt.op_key = 'return:' || r.id) AS transactions,
            (SELECT count(*) FROM entries e WHERE e.transaction_id = r.ledger_transaction_id) AS entries,
            (SELECT coalesce(sum(e.amount_cents), 0) FROM entries e WHERE e.transaction_id = r.ledger_transaction_id) AS sum
       FROM transfer_returns r WHERE r.transfer_id = $1 ORDER BY r.returned_at, r.id`,
    [transferId],
  );
  return rows.map((r) => ({ id: r.id, transactions: Number(r.transactions), entries: Number(r.entries), sum: Number(r.sum) }));
}

describe("returns reach the ledger once", () => {
  it("returned@sandbox.test: the whole amount comes back, credited once, and the transfer stays completed", async ({ pool }) => {
    const accountId = await fundedAccount(startCents);
    const completed = await completedTransfer(accountId, "returned@sandbox.test", 2_500);
    // The return follows the completion; a slow poll may already see it, never a part of it.
    expect([0, 2_500]).toContain(completed.returned_cents);

    const returned = await waitForReturned(accountId, completed.id, 2_500);
    expect(returned.state).toBe("completed");
    expect(returned.returned_cents).toBe(2_500);
    expect(returned.returns).toEqual([
      { id: expect.stringMatching(/^D[0-9A-Za-z]{31}$/), amount_cents: 2_500, reason: "returned_by_recipient", at: expect.any(String) },
    ]);
    expect(returned.history.map((h) => h.state)).toEqual(["started", "funds_reserved", "submitted", "completed"]);
    expect(await getBalance(accountId)).toEqual({
      account_id: accountId,
      balance_cents: startCents,
      held_cents: 0,
      available_cents: startCents,
    });
    expect(await creditsOf(pool, completed.id)).toEqual([{ id: returned.returns[0]?.id, transactions: 1, entries: 2, sum: 0 }]);
    expect((await sandboxPayment(completed.id))?.made).toBe(true);
  });

  it("partial-return@sandbox.test: two returns (half rounded down, then the rest), each credited once", async ({ pool }) => {
    const accountId = await fundedAccount(startCents);
    const completed = await completedTransfer(accountId, "partial-return@sandbox.test", 2_501);

    const returned = await waitForReturned(accountId, completed.id, 2_501);
    expect(returned.state).toBe("completed");
    expect(returned.returns.map((r) => [r.amount_cents, r.reason])).toEqual([
      [1_250, "fraud"],
      [1_251, "fraud"],
    ]);
    expect(returned.returned_cents).toBe(2_501);
    expect((await getBalance(accountId)).balance_cents).toBe(startCents);
    const credits = await creditsOf(pool, completed.id);
    expect(credits.map((c) => [c.transactions, c.entries, c.sum])).toEqual([
      [1, 2, 0],
      [1, 2, 0],
    ]);
  });

  it("credits once when pokes and a direct apply (as reconciliation would) report the same return together", async ({ pool }) => {
    const accountId = await fundedAccount(startCents);
    const completed = await completedTransfer(accountId, "returned@sandbox.test", 4_000);
    const saga = await loadSaga(pool, completed.id);
    if (saga === null) throw new Error("saga missing");
    // Wait until the provider lists the return, then report it from every side at once.
    let answer = await providerFor(env).status(orderOf(saga));
    for (let n = 0; answer.kind !== "confirmed" || answer.returns.length === 0; n++) {
      if (n > 200) throw new Error("the sandbox never returned the money");
      await sleep(25);
      answer = await providerFor(env).status(orderOf(saga));
    }
    const [found] = answer.returns;
    if (found === undefined) throw new Error("no return");
    const stub = env.TRANSFER_SAGA.getByName(completed.id);
    const results = await Promise.all([
      stub.poke("webhook"),
      transferReturnApply(pool, completed.id, found),
      stub.poke("sweeper"),
      transferReturnApply(pool, completed.id, found),
    ]);
    expect(results[1] === "applied" || results[1] === "already_applied").toBe(true);
    expect(results[3] === "applied" || results[3] === "already_applied").toBe(true);

    const returned = await waitForReturned(accountId, completed.id, 4_000);
    expect(returned.returns).toHaveLength(1);
    expect(await creditsOf(pool, completed.id)).toEqual([{ id: found.id, transactions: 1, entries: 2, sum: 0 }]);
    expect((await getBalance(accountId)).balance_cents).toBe(startCents);
    expect(await checkInvariants(pool, { accountIds: [accountId] })).toEqual([]);
  });

  it("asks nothing once the watch for returns has passed", async ({ pool }) => {
    const accountId = await fundedAccount(startCents);
    const completed = await completedTransfer(accountId, "happy@example.com", 1_000);
    const saga = await loadSaga(pool, completed.id);
    if (saga === null || saga.completedAtMs === null) throw new Error("completed saga missing");
    const before = await sandboxPayment(completed.id);
    const ports: SagaPorts = {
      db: pool,
      provider: providerFor(env),
      timings: readSagaTimings(env),
      rules: readRuleSettings(env),
      nowMs: () => (saga.completedAtMs ?? 0) + returnsWatchMs,
    };
    expect(await watchReturns(ports, saga)).toEqual({ checked: false });
    expect((await sandboxPayment(completed.id))?.status_calls).toBe(before?.status_calls);
    // Within the watch the same saga asks, and finds nothing to apply.
    const within = await watchReturns({ ...ports, nowMs: () => Date.now() }, saga);
    expect(within).toEqual({ checked: true, answer: "confirmed", applied: [] });
  });
});
