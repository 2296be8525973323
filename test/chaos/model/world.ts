// The model-based test's two worlds: what the model believes (accounts and what was credited,
// transfers and the sandbox behaviour each was sent with) and the real system (the database
// through the test pool, the Worker through its API). `observe` is the check every command ends
// with: the invariants, plus what only the model knows.
import type { Pool } from "@neondatabase/serverless";
import { expect } from "vitest";
import type { TransferBody } from "../../support/api.ts";
import { sandboxPayment } from "../../support/api.ts";
import { type SandboxBehaviour, tally } from "../../support/faults.ts";
import { checkInvariants, type EntriesSnapshot } from "../../support/invariants.ts";
import { violationCounters } from "../support/checks.ts";
import { resolveReviews } from "../support/operator.ts";
import { retriesOf, runNow } from "../support/recurring.ts";

export interface ModelTransfer {
  id: string;
  accountIndex: number;
  idempotencyKey: string;
  body: TransferBody;
  behaviour: SandboxBehaviour;
  /** The last state observed: a final one must never change. */
  seen: string;
  resolvedByOperator: "sent" | "not_sent" | null;
  /** An occurrence of a recurring transfer, or its evening retry: its key is the recurrence's, never a client's. */
  recurring?: boolean;
}

export interface ModelAccount {
  id: string;
  creditedCents: number;
  /** Credit idempotency keys used, with their amounts. */
  credits: Map<string, number>;
}

export interface Model {
  accounts: ModelAccount[];
  transfers: ModelTransfer[];
  /** Recurring transfers created; their first occurrence (and its retry) are among `transfers` once run. */
  recurrences: { id: string; accountIndex: number; firstTransferId: string }[];
}

export interface Real {
  pool: Pool;
  entriesBefore: EntriesSnapshot;
}

const finalStates: readonly string[] = ["completed", "compensated"];
/** Keys whose payment the provider never makes: completing one without an operator is a bug. */
const neverPaid: readonly SandboxBehaviour[] = ["reject", "lateReject", "timeoutLost", "processing"];

export function accountIds(model: Model): string[] {
  return model.accounts.map((a) => a.id);
}

/** After every command: invariants over the run's accounts, and no final state ever left. */
export async function observe(model: Model, real: Real, after: string): Promise<void> {
  const violations = await checkInvariants(real.pool, { accountIds: accountIds(model), entriesBefore: real.entriesBefore });
  await tally({ ...violationCounters(violations), operations: 1 });
  expect(violations, `invariants after ${after}`).toEqual([]);
  if (model.transfers.length === 0) return;
  const { rows } = await real.pool.query<{ id: string; state: string; failure_code: string | null }>(
    "SELECT id::text, state, failure_code FROM transfers WHERE id::text = ANY($1)",
    [model.transfers.map((t) => t.id)],
  );
  const states = new Map(rows.map((r) => [r.id, r]));
  for (const t of model.transfers) {
    const now = states.get(t.id);
    expect(now, `transfer ${t.id} exists`).toBeDefined();
    if (!now) continue;
    if (finalStates.includes(t.seen)) expect(now.state, `${t.id} (${t.behaviour}) left ${t.seen} after ${after}`).toBe(t.seen);
    if (neverPaid.includes(t.behaviour) && t.resolvedByOperator !== "sent") {
      expect(now.state, `${t.id} (${t.behaviour}) completed without a payment`).not.toBe("completed");
    }
    t.seen = now.state;
  }
}

/**
 * Every recurrence's first occurrence has run, and so has the evening retry of one short of
 * funds: both are then ordinary transfers of the model (the next occurrence waits for its date).
 */
export async function settleRecurrences(model: Model, real: Real, timeoutMs: number): Promise<string[]> {
  const firsts = model.recurrences.map((r) => r.firstTransferId);
  const waiting = await runNow(real.pool, firsts, timeoutMs);
  for (const retry of await retriesOf(real.pool, firsts)) {
    const occurrence = model.transfers.find((t) => t.id === retry.retryOf);
    if (!occurrence || model.transfers.some((t) => t.id === retry.id)) continue;
    model.transfers.push({ ...occurrence, id: retry.id, idempotencyKey: `${occurrence.idempotencyKey}:retry`, seen: "scheduled" });
  }
  const retries = model.transfers.filter((t) => t.recurring && !firsts.includes(t.id)).map((t) => t.id);
  return [...waiting, ...(await runNow(real.pool, retries, timeoutMs))];
}

/** The careful operator works the run's review queue (support/operator.ts). */
export async function resolveModelReviews(model: Model, real: Real): Promise<number> {
  const resolved = await resolveReviews(
    real.pool,
    model.transfers.map((t) => t.id),
  );
  for (const [id, outcome] of resolved) {
    const transfer = model.transfers.find((t) => t.id === id);
    if (transfer) transfer.resolvedByOperator = outcome;
  }
  return resolved.size;
}

/**
 * The end of a run, once every saga drained and reviews were resolved: a transfer is completed
 * exactly when the provider made its payment, and each balance is what was credited minus
 * what completed, nothing held.
 */
export async function reckon(model: Model, real: Real): Promise<void> {
  const { rows } = await real.pool.query<{ id: string; state: string; amount_cents: string }>(
    "SELECT id::text, state, amount_cents::text FROM transfers WHERE id::text = ANY($1)",
    [model.transfers.map((t) => t.id)],
  );
  const completedCents = new Map<string, number>();
  for (const row of rows) {
    const made = (await sandboxPayment(row.id))?.made === true;
    expect(row.state, `${row.id} final state against the provider's record (made: ${made})`).toBe(made ? "completed" : "compensated");
    const transfer = model.transfers.find((t) => t.id === row.id);
    const accountId = transfer ? model.accounts[transfer.accountIndex]?.id : undefined;
    if (row.state === "completed" && accountId)
      completedCents.set(accountId, (completedCents.get(accountId) ?? 0) + Number(row.amount_cents));
  }
  const balances = await real.pool.query<{ id: string; balance_cents: string; held_cents: string }>(
    "SELECT id, balance_cents::text, held_cents::text FROM accounts WHERE id = ANY($1)",
    [accountIds(model)],
  );
  for (const account of model.accounts) {
    const row = balances.rows.find((b) => b.id === account.id);
    expect({ balance: Number(row?.balance_cents), held: Number(row?.held_cents) }, `balance of ${account.id}`).toEqual({
      balance: account.creditedCents - (completedCents.get(account.id) ?? 0),
      held: 0,
    });
  }
}
