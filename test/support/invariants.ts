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
//    operator (or the owner's cancel of a scheduled one), never by a webhook. I9 entries never change. I10 one transfer per key.
// I11 every transfer's events are exactly its history (test/support/event-invariants.ts).
// I12 returns: returned_cents within the amount and equal to the returns listed; returns only
//    on completed transfers; every return has exactly one balanced pair of entries (the
//    customer credited its amount, Pix clearing debited it) and one transfer.returned event.
// I13 each day's new-device usage equals its unregistered devices' transfers still held or
//    settled (test/support/device-invariants.ts).
// I14 limit usage: a São Paulo day's usage equals its transfers held or paid (limit_day); a night
//    window's equals the transfers charged to it (night_evening), each held, paid or still
//    scheduled (a compensated or canceled one has given its amount back).
// I15 recurring transfers: each occurrence runs at most once on its date, plus its one evening
//    retry (test/support/recurring-invariants.ts).
// I16 contestations: returned_cents equals the transfer's fraud returns since it was made; only
//    on completed transfers; at most one not final per transfer (contestation-invariants.ts).
import { env } from "cloudflare:test";
import type { Pool, PoolClient } from "@neondatabase/serverless";
import { sqlStringList } from "../../src/db/sql-list.ts";
import type { PaymentView } from "../../src/provider/sandbox/answers.ts";
import { sandboxInstanceName } from "../../src/provider/sandbox/sandbox-object.ts";
import { canTransition, inFlightStates, type TransferState, transferStates } from "../../src/saga/states.ts";
import { contestationChecks } from "./contestation-invariants.ts";
import { deviceUsageChecks } from "./device-invariants.ts";
import { eventChecks } from "./event-invariants.ts";
import { recurringChecks } from "./recurring-invariants.ts";

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
    ...(await transitionChecks(client, scope)),
    ...(await returnChecks(client, scope)),
    ...(await usageChecks(client, scope)),
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

interface HistoryRow {
  id: string;
  transfer_id: string;
  from_state: TransferState | null;
  to_state: TransferState;
  previous: TransferState | null;
  actor: string;
  call_kind: string | null;
  call_outcome: string | null;
  call_recorded: boolean;
  operator_note: boolean;
}

/** What a provider answer (its recorded outcome label) can justify. */
function providerJustifies(to: TransferState, outcome: string): boolean {
  if (to === "submitted") return outcome === "accepted";
  if (to === "completed") return outcome === "accepted" || outcome === "confirmed";
  if (to === "compensating" || to === "compensated") return outcome.startsWith("rejected:") || outcome === "not_found";
  return false;
}

/** What the saga may decide on its own: holds, limits, unknown sends, deadlines, finishing a compensation. */
function sagaJustifies(row: HistoryRow): boolean {
  switch (row.to_state) {
    case "scheduled":
    case "started":
    case "funds_reserved":
    case "needs_review":
      return true;
    case "submitted":
      return row.call_kind === "send" && (row.call_outcome ?? "").startsWith("unknown:");
    case "compensated":
      return row.from_state === "started" || row.from_state === "compensating";
    default:
      return false;
  }
}

async function transitionChecks(db: PoolClient, scope: readonly string[] | null): Promise<Violation[]> {
  const { rows } = await db.query<HistoryRow>(
    `SELECT h.id::text, h.transfer_id::text, h.from_state, h.to_state, h.actor,
            lag(h.to_state) OVER (PARTITION BY h.transfer_id ORDER BY h.id) AS previous,
            h.evidence->>'provider_call' AS call_kind, h.evidence->>'outcome' AS call_outcome,
            EXISTS (SELECT 1 FROM provider_calls p WHERE p.transfer_id = h.transfer_id
                       AND p.kind = h.evidence->>'provider_call' AND p.outcome = h.evidence->>'outcome') AS call_recorded,
            (h.evidence ? 'operator_note') AS operator_note
       FROM transfer_history h JOIN transfers t ON t.id = h.transfer_id
      WHERE ($1::text[] IS NULL OR t.account_id = ANY($1))
      ORDER BY h.transfer_id, h.id`,
    [scope],
  );
  const found: Violation[] = [];
  for (const row of rows) {
    const subject = row.transfer_id;
    const hop = `${row.from_state ?? "(new)"} -> ${row.to_state} by ${row.actor}`;
    if (row.from_state !== row.previous) found.push(violation("I8", subject, `${hop} does not follow ${row.previous ?? "(nothing)"}`));
    const allowed =
      row.from_state === null ? row.to_state === "started" || row.to_state === "scheduled" : canTransition(row.from_state, row.to_state);
    if (!allowed) found.push(violation("I8", subject, `${hop} is not a transition`));
    if (!transferStates.includes(row.to_state)) found.push(violation("I8", subject, `unknown state ${row.to_state}`));
    const justified =
      row.actor === "provider"
        ? row.call_recorded && providerJustifies(row.to_state, row.call_outcome ?? "")
        : row.actor === "operator"
          ? row.from_state === "needs_review" && row.operator_note
          : row.actor === "client"
            ? row.from_state === "scheduled" && row.to_state === "canceled"
            : row.actor === "saga" && sagaJustifies(row);
    if (!justified) {
      found.push(violation("I8", subject, `${hop} not justified (call ${row.call_kind ?? "none"}: ${row.call_outcome ?? "none"})`));
    }
  }
  return found;
}

async function returnChecks(db: PoolClient, scope: readonly string[] | null): Promise<Violation[]> {
  const found: Violation[] = [];
  const sums = await db.query<{ id: string; state: string; amount: string; returned: string; listed: string; n: string }>(
    `SELECT t.id::text, t.state, t.amount_cents::text AS amount, t.returned_cents::text AS returned,
            coalesce(sum(r.amount_cents), 0)::text AS listed, count(r.id)::text AS n
       FROM transfers t LEFT JOIN transfer_returns r ON r.transfer_id = t.id
      WHERE ($1::text[] IS NULL OR t.account_id = ANY($1))
      GROUP BY t.id
     HAVING t.returned_cents < 0 OR t.returned_cents > t.amount_cents OR t.returned_cents <> coalesce(sum(r.amount_cents), 0)
         OR (count(r.id) > 0 AND t.state <> 'completed')
         OR count(r.id) <> (SELECT count(*) FROM transfer_events e WHERE e.transfer_id = t.id AND e.type = 'transfer.returned')`,
    [scope],
  );
  for (const t of sums.rows) {
    found.push(
      violation(
        "I12",
        t.id,
        `${t.state}, amount ${t.amount}, returned_cents ${t.returned}, ${t.n} return(s) listed summing to ${t.listed}`,
      ),
    );
  }
  // Exactly one ledger transaction per return (its op key), holding exactly the pair: the
  // transfer's account +amount, Pix clearing -amount.
  const pairs = await db.query<{ id: string; transactions: string; entries: string; customer: string | null; clearing: string | null }>(
    `SELECT r.id, (SELECT count(*) FROM ledger_transactions lt WHERE lt.op_key = 'return:' || r.id)::text AS transactions,
            count(e.id)::text AS entries,
            sum(e.amount_cents) FILTER (WHERE e.account_id = t.account_id)::text AS customer,
            sum(e.amount_cents) FILTER (WHERE e.account_id = 'house:pix_clearing')::text AS clearing
       FROM transfer_returns r JOIN transfers t ON t.id = r.transfer_id
       JOIN ledger_transactions lt ON lt.id = r.ledger_transaction_id
       LEFT JOIN entries e ON e.transaction_id = lt.id
      WHERE ($1::text[] IS NULL OR t.account_id = ANY($1))
      GROUP BY r.id, r.amount_cents, lt.op_key, lt.kind
     HAVING lt.kind <> 'return' OR lt.op_key <> 'return:' || r.id
         OR (SELECT count(*) FROM ledger_transactions lt2 WHERE lt2.op_key = 'return:' || r.id) <> 1
         OR count(e.id) <> 2
         OR coalesce(sum(e.amount_cents) FILTER (WHERE e.account_id = t.account_id), 0) <> r.amount_cents
         OR coalesce(sum(e.amount_cents) FILTER (WHERE e.account_id = 'house:pix_clearing'), 0) <> -r.amount_cents`,
    [scope],
  );
  for (const p of pairs.rows) {
    found.push(
      violation(
        "I12",
        `return:${p.id}`,
        `${p.transactions} ledger transaction(s), ${p.entries} entries: customer ${p.customer ?? "none"}, clearing ${p.clearing ?? "none"}`,
      ),
    );
  }
  return found;
}

async function usageChecks(db: PoolClient, scope: readonly string[] | null): Promise<Violation[]> {
  const { rows } = await db.query<{ account_id: string; period: string; starts_on: string; used: string; counted: string }>(
    `SELECT account_id, period, starts_on::text, sum(used)::text AS used, sum(counted)::text AS counted FROM (
       SELECT account_id, period, starts_on, used_cents AS used, 0 AS counted FROM limit_usage
        WHERE period IN ('day', 'night') AND ${scoped}
       UNION ALL
       SELECT t.account_id, 'day', t.limit_day, 0, t.amount_cents FROM transfers t JOIN holds h ON h.id = t.id
        WHERE t.limit_day IS NOT NULL AND h.status IN ('held', 'settled') AND ($1::text[] IS NULL OR t.account_id = ANY($1))
       UNION ALL
       SELECT t.account_id, 'night', t.night_evening, 0, t.amount_cents FROM transfers t
        WHERE t.night_evening IS NOT NULL AND ($1::text[] IS NULL OR t.account_id = ANY($1))) usage
      GROUP BY account_id, period, starts_on HAVING sum(used) <> sum(counted)`,
    [scope],
  );
  const found = rows.map((u) =>
    violation("I14", u.account_id, `${u.period} from ${u.starts_on}: ${u.used} used, but its transfers add up to ${u.counted}`),
  );
  const stale = await db.query<{ id: string; state: string }>(
    `SELECT t.id::text, t.state FROM transfers t
      WHERE t.night_evening IS NOT NULL AND t.state IN ('compensated', 'canceled') AND ($1::text[] IS NULL OR t.account_id = ANY($1))`,
    [scope],
  );
  for (const t of stale.rows) found.push(violation("I14", t.id, `${t.state}, yet still charged to a night`));
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
