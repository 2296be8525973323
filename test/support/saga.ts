// Direct access to the saga record and its ledger effects, to set up step boundaries and to
// check that each transfer was paid and resolved exactly once.
import { env } from "cloudflare:test";
import type { Pool, PoolClient } from "@neondatabase/serverless";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import * as ledger from "../../src/ledger/ledger.ts";
import { localClockFields } from "../../src/lib/sao-paulo-clock.ts";
import { change } from "../../src/saga/transition.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { type applyChange, openTransfer } from "../../src/transfers/store.ts";
import { fundedAccount } from "./api.ts";
import { uniqueAccountId } from "./db.ts";
import { sandboxKeys } from "./faults.ts";

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

/** A new account funded straight through the ledger, for tests that bypass the API and its Worker. */
export async function ledgerAccount(pool: Pool, balanceCents: number): Promise<string> {
  const accountId = uniqueAccountId();
  await ledger.createAccount(pool, accountId);
  if (balanceCents > 0) await ledger.credit(pool, accountId, `seed-${accountId}`, balanceCents);
  return accountId;
}

/** A transfer holding its funds with no object to move it on (a silent key): tests that watch it from outside. */
export async function heldTransfer(pool: Pool): Promise<{ accountId: string; id: string }> {
  const accountId = await fundedAccount(10_000);
  const saga = await openWithoutObject(pool, accountId, 1_000, sandboxKeys.silent.pix_key);
  return { accountId, id: saga.id };
}

/** transfer_apply as any SQL caller would call it, without the TypeScript assertion in front: what the database alone refuses. */
export function transferApplyDirectly(
  pool: Pool | PoolClient,
  id: string,
  expected: string,
  path: readonly string[],
  ledgerEffect: "settle" | "release" | null,
  failure?: string,
) {
  const change = {
    path,
    ledger: ledgerEffect,
    failure_reason: failure ?? null,
    failure_code: failure ? "test_code" : null,
    checks_made: 0,
    next_check_at_ms: null,
    last_sent_at_ms: null,
    sent: false,
    reason: "test",
    actor: "saga",
  };
  return pool.query("SELECT transfer_apply($1, $2, $3::jsonb, NULL) AS result", [id, expected, JSON.stringify(change)]);
}

/** A saga record one send in, at fixed times, for code that only reads a record: a test names what it is about. */
export function submittedRecord(fields: Pick<SagaRecord, "id" | "accountId" | "amountCents" | "pixKey" | "checksMade">): SagaRecord {
  return {
    pixKeyType: "email",
    description: null,
    state: "submitted",
    endToEndId: null,
    sendAttempts: 1,
    lastSentAtMs: 1_800_000_000_000,
    nextCheckAtMs: 1_800_000_001_000,
    deadlineAtMs: 1_800_000_004_000,
    createdAtMs: 1_800_000_000_000,
    returnedCents: 0,
    scheduledFor: null,
    shortRuns: 0,
    completedAtMs: null,
    returnIds: [],
    ...fields,
  };
}

/** A change as applyChange takes it. */
export type StoredChange = Parameters<typeof applyChange>[3];

/** A sent step that changes nothing but `overrides`: tests that write a step by hand name only what it changes. */
export function storedChange(overrides: Partial<StoredChange>): StoredChange {
  return {
    ...change({ checksMade: 0, lastSentAtMs: Date.now() }, { reason: "test", actor: "provider" }),
    sent: true,
    evidence: null,
    ...overrides,
  };
}
