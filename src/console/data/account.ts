// One account for the console: its balance, held and available amounts, its latest ledger
// entries (with the transfer each came from), its latest transfers and recurring transfers.
import type { Queryable } from "../../db/queryable.ts";
import { type Balance, balance } from "../../ledger/ledger.ts";
import { listTransfersForOps } from "../../transfers/ops-reads.ts";
import type { TransferResource } from "../../transfers/store.ts";
import { type RecurrenceItem, readRecurrences } from "./recurring.ts";

export const recentRowsMax = 50;

export interface AccountEntry {
  id: number;
  kind: string;
  amountCents: number;
  balanceAfterCents: number | null;
  /** The transfer whose hold this entry settled; null for credits. */
  transferId: string | null;
  at: string;
}

export interface AccountView {
  balance: Balance;
  entries: AccountEntry[];
  transfers: TransferResource[];
  recurrences: RecurrenceItem[];
}

async function recentEntries(db: Queryable, accountId: string, rowsMax: number): Promise<AccountEntry[]> {
  const { rows } = await db.query<{
    id: string;
    kind: string;
    amount_cents: string;
    balance_after_cents: string | null;
    hold_id: string | null;
    at: string;
  }>(
    `SELECT e.id, lt.kind, e.amount_cents, e.balance_after_cents, lt.hold_id, rfc3339(e.created_at) AS at
       FROM entries e JOIN ledger_transactions lt ON lt.id = e.transaction_id
      WHERE e.account_id = $1 ORDER BY e.id DESC LIMIT $2`,
    [accountId, rowsMax],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    amountCents: Number(r.amount_cents),
    balanceAfterCents: r.balance_after_cents === null ? null : Number(r.balance_after_cents),
    transferId: r.hold_id,
    at: r.at,
  }));
}

export async function readAccount(db: Queryable, accountId: string, rowsMax: number = recentRowsMax): Promise<AccountView | null> {
  const found = await balance(db, accountId);
  if (!found) return null;
  const [entries, transfers, recurrences] = await Promise.all([
    recentEntries(db, accountId, rowsMax),
    listTransfersForOps(db, { state: null, accountId, limit: rowsMax }),
    readRecurrences(db, accountId),
  ]);
  return { balance: found, entries, transfers, recurrences };
}
