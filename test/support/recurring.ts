// Recurring transfers in tests: the request body, the API calls around it, the rows behind it, and
// an occurrence's run at its slot with the clock driven.
import { env, runInDurableObject } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import { transition } from "../../src/saga/transition.ts";
import { viewOf } from "../../src/saga-runtime/advance.ts";
import { followUpsOf } from "../../src/transfers/recurring-follow-ups.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { runScheduledTransfer } from "../../src/transfers/scheduled.ts";
import { loadSaga } from "../../src/transfers/store.ts";
import { call, clientHeaders } from "./api.ts";
import { saoPauloDayFromToday } from "./schedule.ts";

export const recurringBody = (overrides: Record<string, unknown> = {}) => ({
  amount_cents: 2_500,
  pix_key: "100.000.001-08",
  pix_key_type: "cpf",
  description: "mesada",
  first_date: saoPauloDayFromToday(1),
  frequency: "monthly",
  count: 3,
  ...overrides,
});

export async function createRecurring(accountId: string, body: unknown, idempotencyKey: string = crypto.randomUUID()): Promise<Response> {
  return call("/v1/recurring-transfers", {
    method: "POST",
    headers: await clientHeaders(accountId, { "idempotency-key": idempotencyKey }),
    body: JSON.stringify(body),
  });
}

export async function getRecurring(accountId: string, id: string): Promise<Response> {
  return call(`/v1/recurring-transfers/${id}`, { headers: await clientHeaders(accountId) });
}

export async function listRecurring(accountId: string, query = ""): Promise<Response> {
  return call(`/v1/recurring-transfers${query}`, { headers: await clientHeaders(accountId) });
}

export async function cancelRecurring(accountId: string, id: string): Promise<Response> {
  return call(`/v1/recurring-transfers/${id}/cancel`, { method: "POST", headers: await clientHeaders(accountId) });
}

/** How many recurrences an account has: a refused request must leave it as it was. */
export async function recurrenceCount(pool: Pool, accountId: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM recurring_transfers WHERE account_id = $1", [accountId]);
  return Number(rows[0]?.n ?? 0);
}

/**
 * A scheduled transfer's run at its recorded slot (rules, hold, and what comes after it for an
 * occurrence), exactly as its object decides it at that instant; then the transfer's own object
 * carries on in real time from the database's record (a send decided at the slot's future
 * instant would already be past its deadline in real time).
 */
export async function runAtSlot(pool: Pool, id: string): Promise<SagaRecord> {
  const saga = await loadSaga(pool, id);
  const nowMs = saga?.nextCheckAtMs ?? null;
  if (saga === null || nowMs === null) throw new Error(`transfer ${id} waits for nothing`);
  const timings = readSagaTimings(env);
  const command = transition(viewOf(saga), { type: "due" }, nowMs, timings).commands[0];
  if (command?.type !== "run_scheduled") throw new Error(`expected a run, got ${command?.type}`);
  const followUps = followUpsOf(saga, nowMs, timings.deadlineMs);
  const ran = await runScheduledTransfer(pool, id, nowMs, readRuleSettings(env), command.retryAtMs, followUps);
  if (ran.outcome !== "applied") throw new Error(`the run answered ${ran.outcome}`);
  const stub = env.TRANSFER_SAGA.getByName(id);
  await runInDurableObject(stub, async (_, state) => {
    await state.storage.deleteAlarm();
    await state.storage.deleteAll();
  });
  await stub.ensureArmed();
  return ran.saga;
}
