import type { Pool } from "@neondatabase/serverless";
import { describe, expect } from "vitest";
import * as ledger from "../../src/ledger/ledger.ts";
import type { ProviderReturn } from "../../src/saga/returns.ts";
import { transferReturnApply } from "../../src/transfers/returns.ts";
import { completedWithoutProvider } from "../support/completed.ts";
import { uniqueAccountId } from "../support/db.ts";
import { poolTest } from "../support/pool-test.ts";
import { openWithoutObject } from "../support/saga.ts";

const it = poolTest(25);

async function fundedAccount(pool: Pool, amountCents: number): Promise<string> {
  const accountId = uniqueAccountId("ret");
  expect(await ledger.createAccount(pool, accountId)).toBe("created");
  expect(await ledger.credit(pool, accountId, "seed", amountCents)).toBe("credited");
  return accountId;
}

function aReturn(amountCents: number, reason: ProviderReturn["reason"] = "returned_by_recipient"): ProviderReturn {
  return { id: `D${crypto.randomUUID().replaceAll("-", "")}`, amountCents, reason, atMs: Date.now() };
}

interface ReturnFootprint {
  returnedCents: number;
  returns: number;
  transactions: number;
  entries: number;
}

async function footprint(pool: Pool, transferId: string): Promise<ReturnFootprint> {
  const { rows } = await pool.query<{ returned_cents: string; returns: string; transactions: string; entries: string }>(
    `SELECT (SELECT returned_cents FROM transfers WHERE id = $1) AS returned_cents,
            (SELECT count(*) FROM transfer_returns WHERE transfer_id = $1) AS returns,
            (SELECT count(*) FROM ledger_transactions lt JOIN transfer_returns r ON r.ledger_transaction_id = lt.id
              WHERE r.transfer_id = $1) AS transactions,
            (SELECT count(*) FROM entries e JOIN transfer_returns r ON r.ledger_transaction_id = e.transaction_id
              WHERE r.transfer_id = $1) AS entries`,
    [transferId],
  );
  const row = rows[0];
  return {
    returnedCents: Number(row?.returned_cents),
    returns: Number(row?.returns),
    transactions: Number(row?.transactions),
    entries: Number(row?.entries),
  };
}

describe("a return in the ledger", () => {
  it("credits the account back against Pix clearing and lists the return on the transfer", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 10_000);
    const transfer = await completedWithoutProvider(pool, accountId, 2_500);
    expect((await ledger.balance(pool, accountId))?.balanceCents).toBe(7_500);

    const found = aReturn(1_000, "fraud");
    expect(await transferReturnApply(pool, transfer.id, found)).toBe("applied");

    expect(await ledger.balance(pool, accountId)).toEqual({ accountId, balanceCents: 8_500, heldCents: 0, availableCents: 8_500 });
    const { rows } = await pool.query<{ resource: Record<string, unknown> }>("SELECT transfer_json($1) AS resource", [transfer.id]);
    const resource = rows[0]?.resource;
    expect(resource?.state).toBe("completed");
    expect(resource?.returned_cents).toBe(1_000);
    expect(resource?.returns).toEqual([
      { id: found.id, amount_cents: 1_000, reason: "fraud", at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    ]);
    const pair = await pool.query<{ account_id: string; amount_cents: string }>(
      `SELECT e.account_id, e.amount_cents FROM entries e JOIN transfer_returns r ON r.ledger_transaction_id = e.transaction_id
        WHERE r.id = $1 ORDER BY e.amount_cents DESC`,
      [found.id],
    );
    expect(pair.rows.map((r) => [r.account_id, Number(r.amount_cents)])).toEqual([
      [accountId, 1_000],
      ["house:pix_clearing", -1_000],
    ]);
    expect((await ledger.reconcile(pool)).divergences).toEqual([]);
    // Announced in the same transaction (the outbox): the resource with its return.
    const events = await pool.query<{ data: { returned_cents: number; returns: unknown[]; state: string } }>(
      "SELECT data FROM transfer_events WHERE transfer_id = $1 AND type = 'transfer.returned'",
      [transfer.id],
    );
    expect(events.rows.map((e) => [e.data.state, e.data.returned_cents, e.data.returns.length])).toEqual([["completed", 1_000, 1]]);
  });

  it("applies a return once when ten callers report it at the same moment", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 10_000);
    const transfer = await completedWithoutProvider(pool, accountId, 4_000);
    const found = aReturn(4_000);
    const results = await Promise.all(Array.from({ length: 10 }, () => transferReturnApply(pool, transfer.id, found)));
    expect(results.filter((r) => r === "applied")).toHaveLength(1);
    expect(results.filter((r) => r === "already_applied")).toHaveLength(9);
    expect(await footprint(pool, transfer.id)).toEqual({ returnedCents: 4_000, returns: 1, transactions: 1, entries: 2 });
    expect((await ledger.balance(pool, accountId))?.balanceCents).toBe(10_000);
    const events = await pool.query("SELECT 1 FROM transfer_events WHERE transfer_id = $1 AND type = 'transfer.returned'", [transfer.id]);
    expect(events.rows).toHaveLength(1);
  });

  it("lets concurrent distinct returns through only up to the transfer's amount", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 10_000);
    const transfer = await completedWithoutProvider(pool, accountId, 3_000);
    const returns = Array.from({ length: 8 }, () => aReturn(1_000));
    const results = await Promise.all(returns.map((r) => transferReturnApply(pool, transfer.id, r)));
    expect(results.filter((r) => r === "applied")).toHaveLength(3);
    expect(results.filter((r) => r === "exceeds_transfer_amount")).toHaveLength(5);
    expect(await footprint(pool, transfer.id)).toEqual({ returnedCents: 3_000, returns: 3, transactions: 3, entries: 6 });
    expect((await ledger.balance(pool, accountId))?.balanceCents).toBe(10_000);
  });

  it("refuses an over-return called straight in SQL, and writes nothing", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 10_000);
    const transfer = await completedWithoutProvider(pool, accountId, 2_000);
    const { rows } = await pool.query<{ first: string; over: string }>(
      `SELECT transfer_return_apply($1, 'D-over-1-' || $2, 1500, 'other', now()) AS first,
              transfer_return_apply($1, 'D-over-2-' || $2, 501, 'other', now()) AS over`,
      [transfer.id, transfer.id],
    );
    expect(rows[0]).toEqual({ first: "applied", over: "exceeds_transfer_amount" });
    expect(await footprint(pool, transfer.id)).toEqual({ returnedCents: 1_500, returns: 1, transactions: 1, entries: 2 });
    expect((await ledger.balance(pool, accountId))?.balanceCents).toBe(9_500);
  });

  it("refuses, by CHECK, a returned sum beyond the amount from any writer", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 10_000);
    const transfer = await completedWithoutProvider(pool, accountId, 2_000);
    await expect(pool.query("UPDATE transfers SET returned_cents = 2001 WHERE id = $1", [transfer.id])).rejects.toThrow(
      /transfers_returned_within_amount/,
    );
  });

  it("takes returns only for a completed transfer", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 10_000);
    const held = await openWithoutObject(pool, accountId, 1_000);
    expect(await transferReturnApply(pool, held.id, aReturn(500))).toBe("transfer_not_completed");
    expect(await transferReturnApply(pool, crypto.randomUUID(), aReturn(500))).toBe("transfer_not_found");
    expect(await footprint(pool, held.id)).toEqual({ returnedCents: 0, returns: 0, transactions: 0, entries: 0 });
    expect((await ledger.balance(pool, accountId))?.heldCents).toBe(1_000);
  });

  it("refuses a known return id reported with other fields or for another transfer", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 10_000);
    const first = await completedWithoutProvider(pool, accountId, 2_000);
    const second = await completedWithoutProvider(pool, accountId, 2_000);
    const found = aReturn(700);
    expect(await transferReturnApply(pool, first.id, found)).toBe("applied");
    expect(await transferReturnApply(pool, first.id, { ...found, amountCents: 701 })).toBe("exists_with_different_fields");
    expect(await transferReturnApply(pool, second.id, found)).toBe("exists_with_different_fields");
    expect(await footprint(pool, second.id)).toEqual({ returnedCents: 0, returns: 0, transactions: 0, entries: 0 });
  });
});
