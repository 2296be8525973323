// Direct access to the saga record and its ledger effects, to set up step boundaries and to
// check that each transfer was paid and resolved exactly once.
import { env } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import { localClockFields } from "../../src/limits/clock.ts";
import { readRuleSettings } from "../../src/limits/defaults.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { openTransfer } from "../../src/transfers/store.ts";

export interface LedgerFootprint {
  holdStatus: string | null;
  settleTransactions: number;
  entries: number;
  history: string[];
}

export async function ledgerFootprint(pool: Pool, transferId: string): Promise<LedgerFootprint> {
  const { rows } = await pool.query<{ hold_status: string | null; settles: string; entries: string; history: string[] | null }>(
    `SELECT (SELECT status FROM holds WHERE id = $1) AS hold_status,
            (SELECT count(*) FROM ledger_transactions WHERE hold_id = $1) AS settles,
            (SELECT count(*) FROM entries e JOIN ledger_transactions lt ON lt.id = e.transaction_id WHERE lt.hold_id = $1) AS entries,
            (SELECT array_agg(to_state ORDER BY id) FROM transfer_history WHERE transfer_id = $1) AS history`,
    [transferId],
  );
  const row = rows[0];
  return {
    holdStatus: row?.hold_status ?? null,
    settleTransactions: Number(row?.settles ?? 0),
    entries: Number(row?.entries ?? 0),
    history: row?.history ?? [],
  };
}

/** The clock and rule fields a transfer opens with, as the route computes them. */
export function openDefaults(nowMs: number = Date.now()) {
  return { ...localClockFields(nowMs), rules: readRuleSettings(env) };
}

/** What the saga object's start() does up to the hold's commit, without the object: a crash there. */
export async function openWithoutObject(
  pool: Pool,
  accountId: string,
  amountCents: number,
  pixKey = "100.000.001-08",
  request: { idempotencyKey: string; requestFingerprint: string } = { idempotencyKey: crypto.randomUUID(), requestFingerprint: "test" },
): Promise<SagaRecord> {
  const opened = await openTransfer(pool, {
    id: crypto.randomUUID(),
    accountId,
    amountCents,
    pixKey,
    pixKeyType: pixKey.includes("@") ? "email" : "cpf",
    description: null,
    ...request,
    deadlineMs: readSagaTimings(env).deadlineMs,
    ...openDefaults(),
  });
  if (opened.outcome !== "created") throw new Error(`open answered ${opened.outcome}`);
  return opened.saga;
}
