// Delivery completes once faults stop (CONTRACT §6): waits, bounded, until every event of the
// scenario's transfers is delivered, then checks what the tests' receiver got for each one:
// every event in sequence, under its own id, a repeat only as a retry of the same id. The
// sweeper only pokes events a minute overdue; to stand in for that minute, transfers still
// pending after `rescueAfterMs` are poked as the sweeper would, and counted.
import { env } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { expect } from "vitest";
import { sleep } from "../../../src/lib/sleep.ts";
import { deliveriesOf, expectOrderedAtLeastOnce } from "../../events/delivery/receiver.ts";
import { tally } from "../../support/faults.ts";

const pollEveryMs = 200;
/** Pokes in flight at once, as the sweeper's own batches. */
const pokeBatchMax = 10;

interface Outbox {
  transferId: string;
  ids: string[];
  pending: number;
  parked: number;
}

async function outboxesOf(pool: Pool, accountIds: readonly string[]): Promise<Outbox[]> {
  const { rows } = await pool.query<{ transfer_id: string; ids: string[]; pending: string; parked: string }>(
    `SELECT e.transfer_id::text, array_agg(e.id ORDER BY e.sequence) AS ids,
            count(*) FILTER (WHERE e.delivered_at IS NULL)::text AS pending, count(*) FILTER (WHERE e.parked_at IS NOT NULL)::text AS parked
       FROM transfer_events e JOIN transfers t ON t.id = e.transfer_id WHERE t.account_id = ANY($1) GROUP BY e.transfer_id`,
    [accountIds],
  );
  return rows.map((r) => ({ transferId: r.transfer_id, ids: r.ids, pending: Number(r.pending), parked: Number(r.parked) }));
}

async function poke(transferIds: readonly string[]): Promise<void> {
  for (let i = 0; i < transferIds.length; i += pokeBatchMax) {
    await Promise.allSettled(transferIds.slice(i, i + pokeBatchMax).map((id) => env.TRANSFER_SAGA.getByName(id).deliverEvents()));
  }
}

export async function expectEventsDelivered(
  pool: Pool,
  accountIds: readonly string[],
  options: { timeoutMs: number; rescueAfterMs: number; when: string },
): Promise<void> {
  const startedAtMs = Date.now();
  let rescuedAtMs = startedAtMs;
  let eventRescues = 0;
  let outboxes = await outboxesOf(pool, accountIds);
  for (;;) {
    const pending = outboxes.filter((o) => o.pending > 0);
    // A parked event waits for an operator: no amount of waiting delivers it.
    if (pending.length === 0 || pending.some((o) => o.parked > 0) || Date.now() - startedAtMs > options.timeoutMs) break;
    if (Date.now() - rescuedAtMs > options.rescueAfterMs) {
      await poke(pending.map((o) => o.transferId));
      eventRescues += pending.length;
      rescuedAtMs = Date.now();
    }
    await sleep(pollEveryMs);
    outboxes = await outboxesOf(pool, accountIds);
  }
  const undelivered = outboxes.filter((o) => o.pending > 0).map((o) => ({ transfer: o.transferId, pending: o.pending, parked: o.parked }));
  await tally({ event_rescues: eventRescues, undelivered_events: undelivered.reduce((n, o) => n + o.pending, 0) });
  expect(undelivered, `events undelivered ${options.when}`).toEqual([]);
  for (const outbox of outboxes) {
    // Throws on a bad signature, an event sent before its predecessor was acknowledged, or one
    // sequence under two ids.
    const { acknowledged, idsBySequence } = expectOrderedAtLeastOnce(await deliveriesOf(outbox.transferId));
    const expected = outbox.ids.map((_, i) => i + 1);
    // A transfer still in flight may have had a later event delivered since the outbox was read.
    expect(acknowledged.slice(0, expected.length), `${outbox.transferId} acknowledged ${options.when}`).toEqual(expected);
    expect(
      expected.map((sequence) => idsBySequence.get(sequence)),
      `${outbox.transferId} ids ${options.when}`,
    ).toEqual(outbox.ids);
  }
}
