// Three ways to hold funds on one account, each checked to have really held (a refused or
// silently skipped hold would make any variant look faster than it is).
import { randomUUID } from "node:crypto";
import type { PoolClient } from "@neondatabase/serverless";
import { hold } from "../../src/ledger/ledger.ts";

export const holdAmountCents = 1;

/** The ledger module: `SELECT ledger_hold(...)`, one round trip. */
export async function ledgerHold(client: PoolClient, accountId: string): Promise<void> {
  const result = await hold(client, randomUUID(), accountId, holdAmountCents);
  if (result !== "held") throw new Error(`ledger hold on ${accountId} answered ${result}`);
}

/** The bare conditional UPDATE the ledger function is built around, one round trip. */
export async function rawConditionalUpdate(client: PoolClient, accountId: string): Promise<void> {
  const result = await client.query("UPDATE accounts SET held_cents = held_cents + $1 WHERE id = $2 AND balance_cents - held_cents >= $1", [
    holdAmountCents,
    accountId,
  ]);
  if (result.rowCount !== 1) throw new Error(`conditional update on ${accountId} changed ${result.rowCount} rows`);
}

/**
 * The classic alternative: lock the row, decide in the client, write, commit. Five round trips,
 * and the row lock is held across the last three of them.
 */
export async function lockingTransaction(client: PoolClient, accountId: string): Promise<void> {
  await client.query("BEGIN");
  try {
    const { rows } = await client.query<{ available_cents: string }>(
      "SELECT balance_cents - held_cents AS available_cents FROM accounts WHERE id = $1 FOR UPDATE",
      [accountId],
    );
    if (Number(rows[0]?.available_cents ?? 0) < holdAmountCents) throw new Error(`locking hold on ${accountId}: insufficient funds`);
    await client.query("UPDATE accounts SET held_cents = held_cents + $1 WHERE id = $2", [holdAmountCents, accountId]);
    await client.query("INSERT INTO holds (id, account_id, amount_cents, status) VALUES ($1, $2, $3, 'held')", [
      randomUUID(),
      accountId,
      holdAmountCents,
    ]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/**
 * Diagnostic: the same two writes as a ledger hold (the conditional UPDATE and the hold row)
 * as one plain SQL statement, no PL/pgSQL: what the hold row itself costs.
 */
export async function updateAndInsertHold(client: PoolClient, accountId: string): Promise<void> {
  const result = await client.query(
    `WITH held AS (
       UPDATE accounts SET held_cents = held_cents + $1 WHERE id = $2 AND balance_cents - held_cents >= $1 RETURNING id)
     INSERT INTO holds (id, account_id, amount_cents, status) SELECT $3, id, $1, 'held' FROM held`,
    [holdAmountCents, accountId, randomUUID()],
  );
  if (result.rowCount !== 1) throw new Error(`update-and-insert hold on ${accountId} wrote ${result.rowCount} holds`);
}
