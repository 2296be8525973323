import type { Pool } from "@neondatabase/serverless";
import { describe, expect } from "vitest";
import * as ledger from "../../src/ledger/ledger.ts";
import { uniqueAccountId } from "../support/db.ts";
import { poolTest } from "../support/pool-test.ts";

const it = poolTest(25);

async function fundedAccount(pool: Pool, amountCents: number): Promise<string> {
  const accountId = uniqueAccountId();
  expect(await ledger.createAccount(pool, accountId)).toBe("created");
  if (amountCents > 0) expect(await ledger.credit(pool, accountId, "seed", amountCents)).toBe("credited");
  return accountId;
}

describe("ledger holds under concurrency", () => {
  it("holds exactly 10 of 20 concurrent 1000-cent holds against 10000, then settles to zero", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 10_000);
    const holdIds = Array.from({ length: 20 }, () => crypto.randomUUID());
    const results = await Promise.all(holdIds.map((id) => ledger.hold(pool, id, accountId, 1_000)));
    expect(results.filter((r) => r === "held")).toHaveLength(10);
    expect(results.filter((r) => r === "insufficient_funds")).toHaveLength(10);
    expect(await ledger.balance(pool, accountId)).toEqual({ accountId, balanceCents: 10_000, heldCents: 10_000, availableCents: 0 });

    const heldIds = holdIds.filter((_, i) => results[i] === "held");
    const settled = await Promise.all(heldIds.map((id) => ledger.settle(pool, id)));
    expect(settled).toEqual(Array(10).fill("settled"));
    expect(await ledger.balance(pool, accountId)).toEqual({ accountId, balanceCents: 0, heldCents: 0, availableCents: 0 });
  });

  it("keeps 1,000 concurrent holds across 50 accounts consistent through random settles and releases", async ({ pool }) => {
    const accountIds = await Promise.all(Array.from({ length: 50 }, () => fundedAccount(pool, 50_000)));
    const holds = Array.from({ length: 1_000 }, (_, i) => ({
      id: crypto.randomUUID(),
      accountId: accountIds[i % 50] as string,
      amountCents: 1 + Math.floor(Math.random() * 5_000),
    }));
    const holdResults = await Promise.all(holds.map((h) => ledger.hold(pool, h.id, h.accountId, h.amountCents)));
    expect(holdResults.every((r) => r === "held" || r === "insufficient_funds")).toBe(true);
    const held = holds.filter((_, i) => holdResults[i] === "held");
    expect(held.length).toBeGreaterThan(0);

    for (const accountId of accountIds) {
      const b = await ledger.balance(pool, accountId);
      const expectedHeld = held.filter((h) => h.accountId === accountId).reduce((sum, h) => sum + h.amountCents, 0);
      expect(b?.heldCents).toBe(expectedHeld);
      expect(b?.availableCents).toBeGreaterThanOrEqual(0);
    }

    const settleFirst = held.map(() => Math.random() < 0.5);
    const resolutions = await Promise.all(held.map((h, i) => (settleFirst[i] ? ledger.settle(pool, h.id) : ledger.release(pool, h.id))));
    expect(resolutions.every((r) => r === "settled" || r === "released")).toBe(true);
    // A second resolution of every hold, in the other direction, is refused and changes nothing.
    const second = await Promise.all(held.map((h, i) => (settleFirst[i] ? ledger.release(pool, h.id) : ledger.settle(pool, h.id))));
    expect(second).toEqual(held.map((_, i) => (settleFirst[i] ? "already_settled" : "already_released")));

    for (const accountId of accountIds) {
      const settledCents = held.filter((h, i) => h.accountId === accountId && settleFirst[i]).reduce((sum, h) => sum + h.amountCents, 0);
      expect(await ledger.balance(pool, accountId)).toEqual({
        accountId,
        balanceCents: 50_000 - settledCents,
        heldCents: 0,
        availableCents: 50_000 - settledCents,
      });
    }
    const { rows } = await pool.query<{ resolved: string }>(
      "SELECT count(*) AS resolved FROM holds WHERE id = ANY($1::uuid[]) AND resolved_at IS NOT NULL",
      [held.map((h) => h.id)],
    );
    expect(Number(rows[0]?.resolved)).toBe(held.length);
    const report = await ledger.reconcile(pool);
    expect(report.divergences).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe("ledger idempotency", () => {
  it("credits once per key and refuses the key with another amount", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 0);
    expect(await ledger.credit(pool, accountId, "k1", 500)).toBe("credited");
    expect(await ledger.credit(pool, accountId, "k1", 500)).toBe("already_credited");
    expect(await ledger.credit(pool, accountId, "k1", 501)).toBe("exists_with_different_fields");
    expect((await ledger.balance(pool, accountId))?.balanceCents).toBe(500);
  });

  it("holds once per hold id and refuses the id with another amount", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 1_000);
    const holdId = crypto.randomUUID();
    expect(await ledger.hold(pool, holdId, accountId, 400)).toBe("held");
    expect(await ledger.hold(pool, holdId, accountId, 400)).toBe("already_held");
    expect(await ledger.hold(pool, holdId, accountId, 401)).toBe("exists_with_different_fields");
    expect((await ledger.balance(pool, accountId))?.heldCents).toBe(400);
  });

  it("remembers a refused hold: a repeat stays refused even after funds arrive", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 100);
    const holdId = crypto.randomUUID();
    expect(await ledger.hold(pool, holdId, accountId, 400)).toBe("insufficient_funds");
    await ledger.credit(pool, accountId, "more", 1_000);
    expect(await ledger.hold(pool, holdId, accountId, 400)).toBe("already_refused");
    expect((await ledger.balance(pool, accountId))?.heldCents).toBe(0);
  });

  it("settles and releases once; the opposite resolution afterwards is refused", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 1_000);
    const a = crypto.randomUUID();
    const b = crypto.randomUUID();
    await ledger.hold(pool, a, accountId, 300);
    await ledger.hold(pool, b, accountId, 200);
    expect(await ledger.settle(pool, a)).toBe("settled");
    expect(await ledger.settle(pool, a)).toBe("already_settled");
    expect(await ledger.release(pool, a)).toBe("already_settled");
    expect(await ledger.release(pool, b)).toBe("released");
    expect(await ledger.release(pool, b)).toBe("already_released");
    expect(await ledger.settle(pool, b)).toBe("already_released");
    expect(await ledger.balance(pool, accountId)).toEqual({ accountId, balanceCents: 700, heldCents: 0, availableCents: 700 });
    expect(await ledger.settle(pool, crypto.randomUUID())).toBe("hold_not_found");
  });

  it("answers account_not_found instead of throwing for unknown accounts", async ({ pool }) => {
    expect(await ledger.credit(pool, "nobody-here", "k", 1)).toBe("account_not_found");
    expect(await ledger.hold(pool, crypto.randomUUID(), "nobody-here", 1)).toBe("account_not_found");
    expect(await ledger.createAccount(pool, uniqueAccountId())).toBe("created");
  });

  it("leaves no hold row behind for an unknown or a house account, and the id stays usable", async ({ pool }) => {
    const holdId = crypto.randomUUID();
    expect(await ledger.hold(pool, holdId, uniqueAccountId("missing"), 1)).toBe("account_not_found");
    expect(await ledger.hold(pool, holdId, "house:funding", 1)).toBe("account_not_found");
    const { rows } = await pool.query("SELECT 1 FROM holds WHERE id = $1", [holdId]);
    expect(rows).toHaveLength(0);
    const accountId = await fundedAccount(pool, 10);
    expect(await ledger.hold(pool, holdId, accountId, 10)).toBe("held");
  });
});

describe("the database itself guards the invariants", () => {
  it("refuses a direct UPDATE that would make a balance negative", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 100);
    await expect(pool.query("UPDATE accounts SET balance_cents = -1 WHERE id = $1", [accountId])).rejects.toThrow(
      /accounts_balance_not_negative|available/,
    );
    await expect(pool.query("UPDATE accounts SET held_cents = 101 WHERE id = $1", [accountId])).rejects.toThrow(
      /accounts_available_not_negative/,
    );
    expect((await ledger.balance(pool, accountId))?.balanceCents).toBe(100);
  });

  it("refuses UPDATE, DELETE and TRUNCATE on entries", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 100);
    await expect(pool.query("UPDATE entries SET amount_cents = 1 WHERE account_id = $1", [accountId])).rejects.toThrow(/append-only/);
    await expect(pool.query("DELETE FROM entries WHERE account_id = $1", [accountId])).rejects.toThrow(/append-only/);
    await expect(pool.query("TRUNCATE entries CASCADE")).rejects.toThrow(/append-only/);
    const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM entries WHERE account_id = $1", [accountId]);
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it("refuses a ledger transaction whose entries do not sum to zero", async ({ pool }) => {
    const accountId = await fundedAccount(pool, 100);
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ id: string }>(
        "INSERT INTO ledger_transactions (op_key, kind, account_id, amount_cents) VALUES ($1, 'credit', $2, 5) RETURNING id",
        [`bad:${accountId}`, accountId],
      );
      await client.query("INSERT INTO entries (transaction_id, account_id, amount_cents) VALUES ($1, $2, 5)", [rows[0]?.id, accountId]);
      await expect(client.query("COMMIT")).rejects.toThrow(/does not balance/);
    } finally {
      client.release();
    }
    expect((await ledger.reconcile(pool)).ok).toBe(true);
  });

  it("refuses at COMMIT a hold row for an account that does not exist (the key is deferred)", async ({ pool }) => {
    const holdId = crypto.randomUUID();
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      // Deferred (drizzle/0001_checks_and_triggers.sql): the INSERT itself passes; the transaction cannot commit.
      await client.query("INSERT INTO holds (id, account_id, amount_cents, status) VALUES ($1, $2, 1, 'held')", [
        holdId,
        uniqueAccountId(),
      ]);
      await expect(client.query("COMMIT")).rejects.toThrow(/holds_account_id_accounts_id_fk/);
    } finally {
      client.release();
    }
    const { rows } = await pool.query("SELECT 1 FROM holds WHERE id = $1", [holdId]);
    expect(rows).toHaveLength(0);
  });

  it("checks the hold's account key at COMMIT, so a hot account's holds make no MultiXacts", async ({ pool }) => {
    // The MultiXacts themselves are counted by `npm run bench` (diag "MultiXacts per ledger
    // hold()"): the cluster-wide counter is shared with the files running beside this one.
    const { rows } = await pool.query<{ deferrable: boolean; deferred: boolean }>(
      "SELECT condeferrable AS deferrable, condeferred AS deferred FROM pg_constraint WHERE conname = 'holds_account_id_accounts_id_fk'",
    );
    expect(rows).toEqual([{ deferrable: true, deferred: true }]);
  });
});
