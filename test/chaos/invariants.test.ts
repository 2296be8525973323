// The invariant checker must be able to fail: each invariant is broken on purpose, inside a
// transaction that is rolled back (constraints and triggers dropped only there), and the
// checker must name it. A checker that passes everything would make every chaos run green.
import type { PoolClient } from "@neondatabase/serverless";
import { beforeAll, describe, expect, it } from "vitest";
import type { PaymentView } from "../../src/provider/sandbox/answers.ts";
import { transferReturnApply } from "../../src/transfers/returns.ts";
import { createTransfer, fundedAccount, type TransferJson, waitForFinalState } from "../support/api.ts";
import { contest } from "../support/contestations.ts";
import { sandboxKeys } from "../support/faults.ts";
import { checkInvariants, type InvariantId, type PaymentLookup, takeEntriesSnapshot } from "../support/invariants.ts";
import { filePool } from "../support/pool-test.ts";
import { createRecurring, recurringBody, runAtSlot } from "../support/recurring.ts";

const pool = filePool(3);
let accountId: string;
let completedId: string;
let refusedId: string;
/** A weekly recurrence of the healthy account whose two occurrences ran short of funds. */
let recurringId: string;
beforeAll(async () => {
  accountId = await fundedAccount(5_000);
  const completed = await (await createTransfer(accountId, { amount_cents: 3_000, ...sandboxKeys.silent })).json<TransferJson>();
  completedId = (await waitForFinalState(accountId, completed.id)).id;
  // A return on record, so the healthy account exercises I12 with a row to check.
  const returned = { id: `D-invariants-${completedId}`, amountCents: 1_000, reason: "fraud", atMs: Date.now() } as const;
  expect(await transferReturnApply(pool, completedId, returned)).toBe("applied");
  // A contestation on record, so I16 has a row to check.
  expect((await contest(accountId, completedId)).status).toBe(201);
  const refused = await (await createTransfer(accountId, { amount_cents: 9_000, ...sandboxKeys.silent })).json<TransferJson>();
  refusedId = refused.id;
  expect(refused.failure_reason).toBe("insufficient_funds");
  // Two occurrences short of funds, each with its evening retry opened: the first retry ran
  // too (short again, final), the second waits. No provider is involved, so nothing waits on one.
  const recurrence = await (await createRecurring(accountId, recurringBody({ amount_cents: 5_000, frequency: "weekly", count: 2 }))).json<{
    id: string;
    occurrences: { transfer_id: string }[];
  }>();
  recurringId = recurrence.id;
  await runAtSlot(pool, recurrence.occurrences[0]?.transfer_id ?? "");
  const opened = async (sql: string) => (await pool.query<{ id: string }>(sql, [recurringId])).rows[0]?.id ?? "";
  await runAtSlot(
    pool,
    await opened("SELECT id FROM transfers WHERE recurring_transfer_id = $1 AND occurrence = 1 AND retry_of IS NOT NULL"),
  );
  await runAtSlot(pool, await opened("SELECT id FROM transfers WHERE recurring_transfer_id = $1 AND occurrence = 2 AND retry_of IS NULL"));
});

/** What the provider would say: paid for the completed transfer, and whatever a case adds. */
function provider(extra: Record<string, Partial<PaymentView>> = {}): PaymentLookup {
  return async (id) => {
    const base: PaymentView = { idempotency_key: id, send_calls: 1, status_calls: 1, made: true, status: "confirmed", end_to_end_id: null };
    if (extra[id]) return { ...base, ...extra[id] };
    return id === completedId ? base : null;
  };
}

/** Runs `off` (a constraint or trigger dropped), `breakIt` and the checker in one transaction, then rolls everything back. */
async function violationsAfter(
  breakIt: (db: PoolClient) => Promise<unknown>,
  payment: PaymentLookup = provider(),
  off?: string,
): Promise<InvariantId[]> {
  const entriesBefore = await takeEntriesSnapshot(pool, [accountId]);
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    if (off !== undefined) await client.query(off);
    await breakIt(client);
    const found = await checkInvariants(pool, { accountIds: [accountId], entriesBefore, payment, within: client, overdueMsMax: 60_000 });
    return [...new Set(found.map((v) => v.invariant))];
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

describe("the invariant checker", () => {
  it("finds nothing wrong with a healthy account", async () => {
    expect(await violationsAfter(async () => undefined)).toEqual([]);
  });

  it.each<{
    invariant: InvariantId;
    how: string;
    /** The constraint or trigger that would stop `breakIt`, dropped first (inside the transaction). */
    off?: string;
    breakIt: (db: PoolClient) => Promise<unknown>;
    payment?: () => PaymentLookup;
  }>([
    {
      invariant: "I1",
      how: "a balance that differs from its entries",
      breakIt: (db) => db.query("UPDATE accounts SET balance_cents = balance_cents + 1 WHERE id = $1", [accountId]),
    },
    {
      invariant: "I1",
      how: "a ledger transaction that does not sum to zero (the COMMIT check would refuse it)",
      breakIt: async (db) => {
        const { rows } = await db.query<{ id: string }>(
          "INSERT INTO ledger_transactions (op_key, kind, account_id, amount_cents) VALUES ($1, 'credit', $2, 5) RETURNING id::text",
          [`broken:${crypto.randomUUID()}`, accountId],
        );
        await db.query("INSERT INTO entries (transaction_id, account_id, amount_cents) VALUES ($1, 'house:funding', -5)", [rows[0]?.id]);
      },
    },
    {
      invariant: "I2",
      how: "a negative available balance",
      off: "ALTER TABLE accounts DROP CONSTRAINT accounts_available_not_negative",
      breakIt: (db) => db.query("UPDATE accounts SET held_cents = balance_cents + 1 WHERE id = $1", [accountId]),
    },
    {
      invariant: "I3",
      how: "a transfer that entered completed twice (with the transition CHECK off)",
      off: "ALTER TABLE transfer_history DROP CONSTRAINT transfer_history_transition_allowed",
      breakIt: (db) =>
        db.query("INSERT INTO transfer_history (transfer_id, from_state, to_state, actor) VALUES ($1, 'completed', 'completed', 'saga')", [
          completedId,
        ]),
    },
    {
      invariant: "I4",
      how: "completed with its hold still held",
      breakIt: (db) => db.query("UPDATE holds SET status = 'held', resolved_at = NULL WHERE id = $1", [completedId]),
    },
    {
      invariant: "I5",
      how: "an in-flight saga with no next check",
      off: "ALTER TABLE transfers DROP CONSTRAINT transfers_failed_iff_compensated",
      breakIt: (db) => db.query("UPDATE transfers SET state = 'submitted', next_check_at = NULL WHERE id = $1", [refusedId]),
    },
    {
      invariant: "I6",
      how: "a payment at the provider for a refused transfer",
      breakIt: async () => undefined,
      payment: () => provider({ [refusedId]: { made: false, status: "processing" } }),
    },
    {
      invariant: "I7",
      how: "released while the provider paid",
      breakIt: (db) => db.query("UPDATE transfers SET state = 'compensated', failure_reason = 'not_sent' WHERE id = $1", [completedId]),
    },
    {
      invariant: "I8",
      how: "a transition no provider answer justifies (with the transition CHECK off)",
      off: "ALTER TABLE transfer_history DROP CONSTRAINT transfer_history_transition_allowed",
      breakIt: (db) =>
        db.query(
          "INSERT INTO transfer_history (transfer_id, from_state, to_state, actor, evidence) VALUES ($1, 'completed', 'compensated', 'provider', $2)",
          [completedId, JSON.stringify({ provider_call: "webhook", outcome: "rejected:said_so" })],
        ),
    },
    {
      invariant: "I9",
      how: "an entry edited in place (with the append-only trigger off)",
      off: "ALTER TABLE entries DISABLE TRIGGER entries_no_update_or_delete",
      breakIt: async (db) => {
        await db.query(
          "UPDATE entries SET amount_cents = amount_cents WHERE account_id = $1 AND id = (SELECT min(id) FROM entries WHERE account_id = $1)",
          [accountId],
        );
        await db.query("UPDATE entries SET created_at = created_at + interval '1 second' WHERE account_id = $1", [accountId]);
      },
    },
    {
      invariant: "I10",
      how: "two transfers under one Idempotency-Key",
      off: "ALTER TABLE transfers DROP CONSTRAINT transfers_idempotency_key_per_account",
      breakIt: (db) => db.query("UPDATE transfers SET idempotency_key = 'same' WHERE account_id = $1", [accountId]),
    },
    {
      invariant: "I11",
      how: "an event rewritten to show a state its history never had (with the append-only trigger off)",
      off: "ALTER TABLE transfer_history DISABLE TRIGGER transfer_history_no_update_or_delete",
      breakIt: (db) =>
        db.query(`UPDATE transfer_history SET data = jsonb_set(data, '{state}', '"completed"') WHERE transfer_id = $1 AND sequence = 2`, [
          refusedId,
        ]),
    },
    {
      invariant: "I11",
      how: "a gap in a transfer's event sequence (with the trigger that numbers events off)",
      off: "ALTER TABLE transfer_history DISABLE TRIGGER transfer_history_event",
      breakIt: (db) =>
        db.query(
          `INSERT INTO transfer_history (transfer_id, from_state, to_state, actor, sequence, data)
           SELECT $1, NULL, 'started', 'saga', max(sequence) + 2, '{"state": "started"}' FROM transfer_history WHERE transfer_id = $1`,
          [refusedId],
        ),
    },
    {
      invariant: "I12",
      how: "more returned than was sent (with the CHECK off)",
      off: "ALTER TABLE transfers DROP CONSTRAINT transfers_returned_within_amount",
      breakIt: (db) => db.query("UPDATE transfers SET returned_cents = amount_cents + 1 WHERE id = $1", [completedId]),
    },
    {
      invariant: "I12",
      how: "returned_cents that disagrees with the returns listed",
      breakIt: (db) => db.query("UPDATE transfers SET returned_cents = returned_cents + 1 WHERE id = $1", [completedId]),
    },
    {
      invariant: "I12",
      how: "a return credited with a third entry in its ledger transaction",
      breakIt: (db) =>
        db.query(
          `INSERT INTO entries (transaction_id, account_id, amount_cents, balance_after_cents)
           SELECT ledger_transaction_id, 'house:funding', -1, NULL FROM transfer_returns WHERE transfer_id = $1`,
          [completedId],
        ),
    },
    {
      invariant: "I13",
      how: "a day's new-device usage that no transfer from an unregistered device holds",
      breakIt: (db) =>
        db.query("INSERT INTO limit_usage (account_id, period, starts_on, used_cents) VALUES ($1, 'new_device', '2026-12-02', 1)", [
          accountId,
        ]),
    },
    {
      invariant: "I13",
      how: "a held transfer from an unregistered device that its day's new-device usage does not count",
      breakIt: (db) => db.query("UPDATE transfers SET device_registered = false WHERE id = $1", [completedId]),
    },
    {
      invariant: "I14",
      how: "a day's usage that differs from its held and paid transfers",
      breakIt: (db) => db.query("UPDATE limit_usage SET used_cents = used_cents + 1 WHERE account_id = $1 AND period = 'day'", [accountId]),
    },
    {
      invariant: "I14",
      how: "a night charged with a transfer that never held anything",
      breakIt: (db) => db.query("UPDATE transfers SET night_evening = current_date WHERE id = $1", [refusedId]),
    },
    {
      invariant: "I16",
      how: "a contestation whose returned_cents counts a return from before it was made",
      // Its transfer had a 1000-cent fraud return before it was made: one cent of it now counts.
      breakIt: (db) =>
        db.query("UPDATE contestations SET fraud_cents_before = fraud_cents_before - 1 WHERE transfer_id = $1", [completedId]),
    },
    {
      invariant: "I15",
      how: "an occurrence of a recurring transfer run twice on its date (with its unique index off)",
      off: "DROP INDEX transfers_one_per_occurrence",
      breakIt: (db) => db.query("UPDATE transfers SET occurrence = 1 WHERE recurring_transfer_id = $1", [recurringId]),
    },
    {
      invariant: "I15",
      how: "a second evening retry of one occurrence (with its unique index off)",
      off: "DROP INDEX transfers_one_retry_per_occurrence",
      breakIt: (db) =>
        db.query(
          `UPDATE transfers SET retry_of = (SELECT id FROM transfers WHERE recurring_transfer_id = $1 AND occurrence = 1 AND retry_of IS NULL)
            WHERE recurring_transfer_id = $1 AND occurrence = 2 AND retry_of IS NOT NULL`,
          [recurringId],
        ),
    },
  ])("reports $invariant: $how", async ({ invariant, off, breakIt, payment }) => {
    expect(await violationsAfter(breakIt, payment?.(), off)).toContain(invariant);
  });
});
