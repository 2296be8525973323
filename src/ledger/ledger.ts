// The ledger's operations. Each is one SQL function call: one atomic round trip that holds no
// row lock across a network hop. Results are values; only faults throw.
import type { Queryable } from "../db/queryable.ts";
import {
  asResult,
  type CreateAccountResult,
  type CreditResult,
  createAccountResults,
  creditResults,
  type HoldResult,
  holdResults,
  type ReleaseResult,
  releaseResults,
  type SettleResult,
  settleResults,
} from "./results.ts";

export interface Balance {
  accountId: string;
  balanceCents: number;
  heldCents: number;
  availableCents: number;
}

export interface Reconciliation {
  ok: boolean;
  accounts_checked: number;
  divergences: Record<string, unknown>[];
}

/** Operation keys: one per effect, so a repeat finds the first and never acts twice. */
export const opKeys = {
  hold: (transferId: string) => `saga:${transferId}:hold`,
  settle: (transferId: string) => `saga:${transferId}:settle`,
  release: (transferId: string) => `saga:${transferId}:release`,
  credit: (accountId: string, idempotencyKey: string) => `credit:${accountId}:${idempotencyKey}`,
};

async function callResult(db: Queryable, sql: string, values: unknown[]): Promise<unknown> {
  const { rows } = await db.query<{ result: unknown }>(sql, values);
  return rows[0]?.result;
}

export async function createAccount(db: Queryable, accountId: string): Promise<CreateAccountResult> {
  return asResult(createAccountResults, await callResult(db, "SELECT ledger_create_account($1) AS result", [accountId]));
}

export async function credit(db: Queryable, accountId: string, idempotencyKey: string, amountCents: number): Promise<CreditResult> {
  const result = await callResult(db, "SELECT ledger_credit($1, $2, $3) AS result", [
    opKeys.credit(accountId, idempotencyKey),
    accountId,
    amountCents,
  ]);
  return asResult(creditResults, result);
}

/** The hold id is the transfer id: one hold per saga. */
export async function hold(db: Queryable, holdId: string, accountId: string, amountCents: number): Promise<HoldResult> {
  return asResult(holdResults, await callResult(db, "SELECT ledger_hold($1, $2, $3) AS result", [holdId, accountId, amountCents]));
}

export async function settle(db: Queryable, holdId: string): Promise<SettleResult> {
  return asResult(settleResults, await callResult(db, "SELECT ledger_settle($1, $2) AS result", [holdId, opKeys.settle(holdId)]));
}

export async function release(db: Queryable, holdId: string): Promise<ReleaseResult> {
  return asResult(releaseResults, await callResult(db, "SELECT ledger_release($1) AS result", [holdId]));
}

export async function balance(db: Queryable, accountId: string): Promise<Balance | null> {
  const { rows } = await db.query<{ balance_cents: string; held_cents: string }>(
    "SELECT balance_cents, held_cents FROM accounts WHERE id = $1 AND kind = 'customer'",
    [accountId],
  );
  const row = rows[0];
  if (!row) return null;
  const balanceCents = Number(row.balance_cents);
  const heldCents = Number(row.held_cents);
  return { accountId, balanceCents, heldCents, availableCents: balanceCents - heldCents };
}

export async function reconcile(db: Queryable): Promise<Reconciliation> {
  const { rows } = await db.query<{ report: Reconciliation }>("SELECT ledger_reconcile() AS report");
  const report = rows[0]?.report;
  if (!report) throw new Error("reconciliation returned no report");
  return { ...report, accounts_checked: Number(report.accounts_checked) };
}
