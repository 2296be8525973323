// Recurring occurrences in the chaos workload: a client creates a recurrence (retrying with the
// same Idempotency-Key, as for transfers), and its occurrence's day is made to come now, then
// raced from every side (its object told twice, its alarm fired twice) while the faults go on.
// The evening retry an occurrence short of funds opens is brought forward the same way.

import { env, runDurableObjectAlarm } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { sleep } from "../../../src/lib/sleep.ts";
import { tally } from "../../support/faults.ts";
import { createRecurring } from "../../support/recurring.ts";
import { serverErrorCounters } from "./answers.ts";
import { retryDelayMsMax } from "./clients.ts";

export interface CreatedRecurrence {
  status: number;
  id: string | null;
  firstTransferId: string | null;
  firstTransferKey: string | null;
}

export async function createRecurringWithRetries(accountId: string, body: unknown, attemptsMax = 8): Promise<CreatedRecurrence> {
  const idempotencyKey = crypto.randomUUID();
  for (let attempt = 1; ; attempt++) {
    let response: Response | null = null;
    try {
      response = await createRecurring(accountId, body, idempotencyKey);
    } catch {
      response = null; // the call itself broke: as unknown as a 5xx
    }
    const status = response?.status ?? 0;
    if (response !== null) await tally({ operations: 1, ...serverErrorCounters(response) });
    if ((status !== 0 && status < 500) || attempt >= attemptsMax) {
      if (response === null || status !== 201) {
        await response?.body?.cancel();
        return { status, id: null, firstTransferId: null, firstTransferKey: null };
      }
      const recurrence = await response.json<{ id: string; occurrences: { transfer_id: string }[] }>();
      const firstTransferId = recurrence.occurrences[0]?.transfer_id ?? null;
      return { status, id: recurrence.id, firstTransferId, firstTransferKey: `recurring:${recurrence.id}:1` };
    }
    await response?.body?.cancel();
    await sleep(Math.min(100 * attempt, retryDelayMsMax));
  }
}

/** Makes a scheduled transfer's slot come now and wakes its object from every side at once. */
async function bringForward(pool: Pool, transferId: string): Promise<void> {
  await pool.query("UPDATE transfers SET next_check_at = now() WHERE id = $1 AND state = 'scheduled'", [transferId]);
  const stub = env.TRANSFER_SAGA.getByName(transferId);
  // Faults may cut any of these; the object's own alarm and the next round carry on.
  await Promise.allSettled([stub.adopt(), stub.adopt(), runDurableObjectAlarm(stub), runDurableObjectAlarm(stub)]);
}

/**
 * Brings each transfer forward until it has run (left `scheduled`), within `timeoutMs`; answers
 * those still waiting. A run cut by a database fault is retried by its object with backoff.
 */
export async function runNow(pool: Pool, transferIds: readonly string[], timeoutMs: number): Promise<string[]> {
  const startedAtMs = Date.now();
  for (;;) {
    const { rows } = await pool.query<{ id: string }>("SELECT id::text FROM transfers WHERE id::text = ANY($1) AND state = 'scheduled'", [
      transferIds,
    ]);
    const waiting = rows.map((r) => r.id);
    if (waiting.length === 0 || Date.now() - startedAtMs > timeoutMs) return waiting;
    await Promise.all(waiting.map((id) => bringForward(pool, id)));
    await sleep(200);
  }
}

/** The evening retries the given occurrences opened (after too little available at their run). */
export async function retriesOf(pool: Pool, occurrenceIds: readonly string[]): Promise<{ id: string; retryOf: string }[]> {
  const { rows } = await pool.query<{ id: string; retry_of: string }>(
    "SELECT id::text, retry_of::text FROM transfers WHERE retry_of::text = ANY($1)",
    [occurrenceIds],
  );
  return rows.map((r) => ({ id: r.id, retryOf: r.retry_of }));
}
