// "Nothing is lost", as checks any test can run: SQL over one consistent snapshot of the
// database, plus the sandbox provider's ground truth. Returns the violations (empty = ok).
// Test files share one database: pass the accounts a test owns to check only its rows.
//
//   const violations = await checkInvariants(pool, { accountIds, entriesBefore });
//   expect(violations).toEqual([]);
//
// I1 balances equal their entries, held equals open holds, every ledger transaction and all
//    entries sum to zero. I2 nothing below zero. I3 one hold per transfer, resolved at most once.
// I4 completed <=> settled, compensated <=> released/refused/none, needs_review => held,
//    scheduled and canceled hold nothing.
// I5 every in-flight saga has a next check (and, when asked, none is overdue).
// I6 at most one payment per transfer, none for a transfer never held, none for no transfer.
// I7 never released while the provider paid (unless reconciliation opened its paid-after-release
//    case for a person); never settled by the saga without a payment.
// I8 every transition allowed and justified by a provider answer, the saga's rules or an
//    operator (or the owner's cancel of a scheduled one), never by a webhook
//    (transition-invariants.ts). I9 entries never change. I10 one transfer per key.
// I11 every transfer's events are exactly its history (test/support/event-invariants.ts).
// I12 returns: returned_cents within the amount and equal to the returns listed; returns only
//    on completed transfers; every return has exactly one balanced pair of entries (the
//    customer credited its amount, Pix clearing debited it) and one transfer.returned event
//    (return-invariants.ts).
// I13 each day's new-device usage equals its unregistered devices' transfers still held or
//    settled (test/support/device-invariants.ts).
// I14 limit usage: a São Paulo day's usage equals its transfers held or paid (limit_day); a night
//    window's equals the transfers charged to it (night_evening), each held, paid or still
//    scheduled (a compensated or canceled one has given its amount back; limit-invariants.ts).
// I15 recurring transfers: each occurrence runs at most once on its date, plus its one evening
//    retry (test/support/recurring-invariants.ts).
// I16 contestations: returned_cents equals the transfer's fraud returns since it was made; only
//    on completed transfers; at most one not final per transfer (contestation-invariants.ts).
import { env } from "cloudflare:test";
import type { Pool, PoolClient } from "@neondatabase/serverless";
import { sqlStringList } from "../../src/db/sql-list.ts";
import type { PaymentView } from "../../src/provider/sandbox/answers.ts";
import { sandboxInstanceName } from "../../src/provider/sandbox/sandbox-object.ts";
import { inFlightStates, type TransferState } from "../../src/saga/states.ts";
import { contestationChecks } from "./contestation-invariants.ts";
import { deviceUsageChecks } from "./device-invariants.ts";
import { eventChecks } from "./event-invariants.ts";
import { usageChecks } from "./limit-invariants.ts";
import { recurringChecks } from "./recurring-invariants.ts";
import { returnChecks } from "./return-invariants.ts";
import { transitionChecks } from "./transition-invariants.ts";

export const invariantIds = [
  "I1",
  "I2",
  "I3",
  "I4",
  "I5",
  "I6",
  "I7",
  "I8",
  "I9",
  "I10",
  "I11",
  "I12",
  "I13",
  "I14",
  "I15",
  "I16",
] as const;
export type InvariantId = (typeof invariantIds)[number];

export interface Violation {
  invariant: InvariantId;
  /** The transfer, account, hold or ledger transaction at fault. */
  subject: string;
  detail: string;
}

/** What the provider holds for a transfer id, or null when it never saw it. */
export type PaymentLookup = (transferId: string) => Promise<PaymentView | null>;

export interface InvariantOptions {
  /** Only these accounts' rows; null or absent: the whole database. */
  accountIds?: readonly string[] | null;
  /** I9: a snapshot taken earlier; its entries must be unchanged. */
  entriesBefore?: EntriesSnapshot;
  /** I5: an in-flight saga whose next check is overdue by more than this is stuck. */
  overdueMsMax?: number;
  /** The provider's ground truth; defaults to this test file's sandbox. */
  payment?: PaymentLookup;
  /** false for tests that write saga steps themselves with no provider behind them: skips I6 and I7. */
  providerTruth?: boolean;
  /** Check inside this client's open transaction (it sees its own uncommitted writes); never ended here. */
  within?: PoolClient;
}

export interface EntriesSnapshot {
  accountIds: readonly string[] | null;
  maxEntryId: number;
  count: number;
  digest: string;
}

/** Lookups in flight at once against the sandbox object. */
const paymentLookupsInFlightMax = 16;

export function sandboxPayments(): PaymentLookup {
  const sandbox = env.SANDBOX.getByName(sandboxInstanceName);
  return (transferId) => sandbox.payment(transferId);
}

/** I9's baseline: how many entries the scope has, and a digest of every one of them. */
export async function takeEntriesSnapshot(pool: Pool, accountIds: readonly string[] | null = null): Promise<EntriesSnapshot> {
  const { rows } = await pool.query<{ max_id: string | null }>(
    "SELECT max(id)::text AS max_id FROM entries WHERE ($1::text[] IS NULL OR account_id = ANY($1))",
    [accountIds],
  );
  const maxEntryId = Number(rows[0]?.max_id ?? 0);
  const { count, digest } = await entriesDigest(pool, accountIds, maxEntryId);
  return { accountIds, maxEntryId, count, digest };
}

async function entriesDigest(
  db: Pool | PoolClient,
  accountIds: readonly string[] | null,
  maxEntryId: number,
): Promise<{ count: number; digest: string }> {
  const { rows } = await db.query<{ n: string; digest: string | null }>(
    `SELECT count(*)::text AS n,
            md5(string_agg(concat_ws(':', id, transaction_id, account_id, amount_cents, balance_after_cents, created_at), ',' ORDER BY id)) AS digest
       FROM entries WHERE id <= $2 AND ($1::text[] IS NULL OR account_id = ANY($1))`,
    [accountIds, maxEntryId],
  );
  return { count: Number(rows[0]?.n ?? 0), digest: rows[0]?.digest ?? "" };
}

interface TransferRow {
  id: string;
  account_id: string;
  state: TransferState;
  failure_reason: string | null;
  hold_status: string | null;
  settled_by_operator: boolean;
  /** Provider reconciliation opened a paid-after-release case for it: a person has it. */
  case_opened: boolean;
}

export async function checkInvariants(pool: Pool, options: InvariantOptions = {}): Promise<Violation[]> {
  const scope = options.accountIds ?? null;
  const { violations, transfers } = options.within
    ? await sqlChecks(options.within, scope, options)
    : await inSnapshot(pool, (client) => sqlChecks(client, scope, options));
  // After the snapshot: a transfer final in it stays final, so the provider's answer now is fair.
  if (options.providerTruth !== false) {
    violations.push(...(await providerChecks(transfers, options.payment ?? sandboxPayments(), scope !== null)));
  }
  return violations;
}

/** One snapshot for every SQL check: sagas keep moving while we look. */
async function inSnapshot<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // A connection left inside a failed transaction must not go back to the pool.
    client.release(failed);
  }
}

async function sqlChecks(
  client: PoolClient,
  scope: readonly string[] | null,
  options: InvariantOptions,
): Promise<{ violations: Violation[]; transfers: TransferRow[] }> {
  const violations = [
    ...(await ledgerChecks(client, scope)),
    ...(await holdChecks(client, scope)),
    ...(await sagaChecks(client, scope, options.overdueMsMax ?? null)),
    ...(await transitionChecks(client, scope)).map((found) => violation("I8", found.subject, found.detail)),
    ...(await returnChecks(client, scope)).map((found) => violation("I12", found.subject, found.detail)),
    ...(await usageChecks(client, scope)).map((found) => violation("I14", found.subject, found.detail)),
    ...(options.entriesBefore ? await entriesUnchanged(client, options.entriesBefore) : []),
    ...(await eventChecks(client, scope)).map((found) => violation("I11", found.subject, found.detail)),
    ...(await deviceUsageChecks(client, scope)).map((found) => violation("I13", found.subject, found.detail)),
    ...(await contestationChecks(client, scope)).map((found) => violation("I16", found.subject, found.detail)),
    ...(await recurringChecks(client, scope)).map((found) => violation("I15", found.subject, found.detail)),
  ];
  const { rows: transfers } = await client.query<TransferRow>(
    `SELECT t.id, t.account_id, t.state, t.failure_reason, h.status AS hold_status,
            EXISTS (SELECT 1 FROM transfer_history th WHERE th.transfer_id = t.id AND th.to_state = 'completed' AND th.actor = 'operator')
              AS settled_by_operator,
            EXISTS (SELECT 1 FROM provider_reconciliation_cases c WHERE c.transfer_id = t.id) AS case_opened
       FROM transfers t LEFT JOIN holds h ON h.id = t.id
      WHERE ($1::text[] IS NULL OR t.account_id = ANY($1))`,
    [scope],
  );
  return { violations, transfers };
}

function violation(invariant: InvariantId, subject: string, detail: string): Violation {
  return { invariant, subject, detail };
}

const scoped = "($1::text[] IS NULL OR account_id = ANY($1))";

async function ledgerChecks(db: PoolClient, scope: readonly string[] | null): Promise<Violation[]> {
  const found: Violation[] = [];
  const accounts = await db.query<{ id: string; balance: string; held: string; entries: string; open_holds: string }>(
    `SELECT a.id, a.balance_cents::text AS balance, a.held_cents::text AS held,
            coalesce((SELECT sum(amount_cents) FROM entries e WHERE e.account_id = a.id), 0)::text AS entries,
            coalesce((SELECT sum(amount_cents) FROM holds h WHERE h.account_id = a.id AND h.status = 'held'), 0)::text AS open_holds
       FROM accounts a WHERE a.kind = 'customer' AND ($1::text[] IS NULL OR a.id = ANY($1))`,
    [scope],
  );
  for (const a of accounts.rows) {
    if (a.balance !== a.entries) found.push(violation("I1", a.id, `balance ${a.balance} but entries sum to ${a.entries}`));
    if (a.held !== a.open_holds) found.push(violation("I1", a.id, `held ${a.held} but open holds sum to ${a.open_holds}`));
    if (Number(a.balance) < 0 || Number(a.held) < 0 || Number(a.balance) - Number(a.held) < 0) {
      found.push(violation("I2", a.id, `balance ${a.balance}, held ${a.held}`));
    }
  }
  const unbalanced = await db.query<{ transaction_id: string; total: string }>(
    `SELECT transaction_id::text, sum(amount_cents)::text AS total FROM entries
      WHERE transaction_id IN (SELECT transaction_id FROM entries WHERE ${scoped})
      GROUP BY transaction_id HAVING sum(amount_cents) <> 0`,
    [scope],
  );
  for (const t of unbalanced.rows) found.push(violation("I1", `ledger_transaction:${t.transaction_id}`, `sums to ${t.total}`));
  const total = await db.query<{ total: string }>("SELECT coalesce(sum(amount_cents), 0)::text AS total FROM entries");
  if (total.rows[0]?.total !== "0") found.push(violation("I1", "entries", `all entries sum to ${total.rows[0]?.total}`));
  const house = await db.query<{ id: string }>(
    "SELECT id FROM accounts WHERE kind <> 'customer' AND (balance_cents <> 0 OR held_cents <> 0)",
  );
  for (const h of house.rows) found.push(violation("I2", h.id, "a house account carries a running balance"));
  return found;
}

async function holdChecks(db: PoolClient, scope: readonly string[] | null): Promise<Violation[]> {
  const found: Violation[] = [];
  const mismatched = await db.query<{ id: string; detail: string }>(
    `SELECT coalesce(t.id, h.id)::text AS id,
            CASE WHEN t.id IS NULL THEN 'a hold without a transfer'
                 ELSE 'hold ' || h.account_id || '/' || h.amount_cents || ' differs from transfer ' || t.account_id || '/' || t.amount_cents END AS detail
       FROM holds h LEFT JOIN transfers t ON t.id = h.id
      WHERE ($1::text[] IS NULL OR h.account_id = ANY($1))
        AND (t.id IS NULL OR h.account_id <> t.account_id OR h.amount_cents <> t.amount_cents)`,
    [scope],
  );
  for (const m of mismatched.rows) found.push(violation("I3", m.id, m.detail));
  // Resolved at most once: a settled hold has exactly one settle (two balanced entries); others none.
  const settles = await db.query<{ id: string; status: string; settles: string; entries: string; customer_cents: string | null }>(
    `SELECT h.id::text, h.status, count(DISTINCT lt.id)::text AS settles, count(e.id)::text AS entries,
            sum(e.amount_cents) FILTER (WHERE e.account_id = h.account_id)::text AS customer_cents
       FROM holds h
       LEFT JOIN ledger_transactions lt ON lt.hold_id = h.id
       LEFT JOIN entries e ON e.transaction_id = lt.id
      WHERE ($1::text[] IS NULL OR h.account_id = ANY($1))
      GROUP BY h.id, h.status, h.amount_cents
     HAVING count(DISTINCT lt.id) <> CASE WHEN h.status = 'settled' THEN 1 ELSE 0 END
         OR (h.status = 'settled' AND (count(e.id) <> 2 OR sum(e.amount_cents) FILTER (WHERE e.account_id = h.account_id) <> -h.amount_cents))`,
    [scope],
  );
  for (const s of settles.rows) {
    found.push(
      violation("I3", s.id, `hold ${s.status} with ${s.settles} settle(s), ${s.entries} entries, customer side ${s.customer_cents}`),
    );
  }
  const twice = await db.query<{ transfer_id: string; to_state: string; n: string }>(
    `SELECT h.transfer_id::text, h.to_state, count(*)::text AS n FROM transfer_history h JOIN transfers t ON t.id = h.transfer_id
      WHERE h.to_state IN ('completed', 'compensated') AND ($1::text[] IS NULL OR t.account_id = ANY($1))
      GROUP BY h.transfer_id, h.to_state HAVING count(*) > 1`,
    [scope],
  );
  for (const t of twice.rows) found.push(violation("I3", t.transfer_id, `entered ${t.to_state} ${t.n} times`));
  return found;
}

async function sagaChecks(db: PoolClient, scope: readonly string[] | null, overdueMsMax: number | null): Promise<Violation[]> {
  const found: Violation[] = [];
  const states = await db.query<{ id: string; state: string; failure_reason: string | null; hold_status: string | null }>(
    `SELECT t.id::text, t.state, t.failure_reason, h.status AS hold_status FROM transfers t LEFT JOIN holds h ON h.id = t.id
      WHERE ($1::text[] IS NULL OR t.account_id = ANY($1))
        AND NOT CASE t.state
          WHEN 'completed' THEN coalesce(h.status, 'none') = 'settled'
          WHEN 'compensated' THEN CASE t.failure_reason
            WHEN 'insufficient_funds' THEN coalesce(h.status, 'none') = 'refused'
            WHEN 'limit_exceeded' THEN h.status IS NULL
            ELSE coalesce(h.status, 'none') = 'released' END
          WHEN 'started' THEN h.status IS NULL
          WHEN 'scheduled' THEN h.status IS NULL
          WHEN 'canceled' THEN h.status IS NULL
          ELSE coalesce(h.status, 'none') = 'held' END`,
    [scope],
  );
  for (const s of states.rows) {
    found.push(violation("I4", s.id, `${s.state}${s.failure_reason ? ` (${s.failure_reason})` : ""} with hold ${s.hold_status ?? "none"}`));
  }
  const unscheduled = await db.query<{ id: string; state: string; overdue_ms: string | null }>(
    `SELECT id::text, state, (extract(epoch FROM now() - next_check_at) * 1000)::bigint::text AS overdue_ms FROM transfers
      WHERE state IN (${sqlStringList(inFlightStates)}) AND ${scoped}
        AND (next_check_at IS NULL OR ($2::bigint IS NOT NULL AND next_check_at < now() - $2::bigint * interval '1 millisecond'))`,
    [scope, overdueMsMax],
  );
  for (const u of unscheduled.rows) {
    found.push(
      violation(
        "I5",
        u.id,
        u.overdue_ms === null ? `${u.state} with no next check` : `${u.state}, next check overdue by ${u.overdue_ms} ms`,
      ),
    );
  }
  const keys = await db.query<{ account_id: string; idempotency_key: string; n: string }>(
    `SELECT account_id, idempotency_key, count(*)::text AS n FROM transfers WHERE ${scoped}
      GROUP BY account_id, idempotency_key HAVING count(*) > 1`,
    [scope],
  );
  for (const k of keys.rows) found.push(violation("I10", k.account_id, `${k.n} transfers for Idempotency-Key ${k.idempotency_key}`));
  return found;
}

async function entriesUnchanged(db: PoolClient, before: EntriesSnapshot): Promise<Violation[]> {
  const now = await entriesDigest(db, before.accountIds, before.maxEntryId);
  if (now.count === before.count && now.digest === before.digest) return [];
  return [violation("I9", "entries", `entries up to id ${before.maxEntryId} changed: ${before.count} -> ${now.count} rows`)];
}

async function providerChecks(transfers: readonly TransferRow[], payment: PaymentLookup, scopedRun: boolean): Promise<Violation[]> {
  const found: Violation[] = [];
  const answers = new Map<string, PaymentView | null>();
  for (let i = 0; i < transfers.length; i += paymentLookupsInFlightMax) {
    const batch = transfers.slice(i, i + paymentLookupsInFlightMax);
    const views = await Promise.all(batch.map((t) => payment(t.id)));
    for (const [j, t] of batch.entries()) answers.set(t.id, views[j] ?? null);
  }
  for (const t of transfers) {
    const paid = answers.get(t.id) ?? null;
    const neverHeld = t.failure_reason === "insufficient_funds" || t.failure_reason === "limit_exceeded";
    if (paid !== null && neverHeld)
      found.push(violation("I6", t.id, `the provider got a payment for a transfer refused (${t.failure_reason})`));
    if (paid !== null && paid.idempotency_key !== t.id)
      found.push(violation("I6", t.id, `the provider answered for ${paid.idempotency_key}`));
    // A Pix that left after we released it (late-confirm@) is caught by provider reconciliation
    // and put before a person (issue 16): released while paid is a violation until that case exists.
    if (t.state === "compensated" && paid?.made === true && !t.case_opened)
      found.push(violation("I7", t.id, "released while the provider paid, and no paid-after-release case"));
    // Another file's sandbox never saw this file's transfers: only a scoped run can ask.
    if (scopedRun && t.state === "completed" && !t.settled_by_operator && paid?.made !== true) {
      found.push(violation("I7", t.id, "settled by the saga without a payment at the provider"));
    }
  }
  return found;
}

/** Sandbox payments whose key is no transfer at all: money sent for nothing we know (I6). */
export async function orphanPayments(pool: Pool, payments: readonly PaymentView[]): Promise<Violation[]> {
  const keys = payments.filter((p) => p.made).map((p) => p.idempotency_key);
  if (keys.length === 0) return [];
  const { rows } = await pool.query<{ id: string }>("SELECT id::text FROM transfers WHERE id::text = ANY($1)", [keys]);
  const known = new Set(rows.map((r) => r.id));
  return keys.filter((k) => !known.has(k)).map((k) => violation("I6", k, "a payment at the provider for no transfer"));
}
