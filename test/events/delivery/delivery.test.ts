// Delivery of outbound events (CONTRACT §6) to a real receiver of the tests' own: signed (the
// official standardwebhooks package verifies every one), in order per transfer, at least once
// with stable ids, through a receiver that fails, hangs past the timeout or is down for a
// while; and found by the sweeper when no alarm is left to deliver them.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { opsEventListSchema } from "../../../src/contract/ops-schemas.ts";
import { eventAttemptTimeoutMs } from "../../../src/events/send.ts";
import { sleep } from "../../../src/lib/sleep.ts";
import { call, clientHeaders, fundedAccount, getTransfer, opsCall } from "../../support/api.ts";
import { sandboxKeys } from "../../support/faults.ts";
import { filePool } from "../../support/pool-test.ts";
import { openWithoutObject } from "../../support/saga.ts";
import { deliveriesOf, expectOrderedAtLeastOnce, receiverAnswers } from "./receiver.ts";

const pool = filePool(3);

interface Outbox {
  final: boolean;
  events: { id: string; sequence: number; delivered: boolean; attempts: number }[];
}

async function outboxOf(transferId: string): Promise<Outbox> {
  const { rows } = await pool.query<{ id: string; sequence: number; delivered: boolean; attempts: number; final: boolean }>(
    `SELECT e.id, e.sequence, e.delivered_at IS NOT NULL AS delivered, e.attempts,
            t.state IN ('completed', 'compensated', 'needs_review', 'canceled') AS final
       FROM transfer_events e JOIN transfers t ON t.id = e.transfer_id WHERE e.transfer_id = $1 ORDER BY e.sequence`,
    [transferId],
  );
  return { final: rows[0]?.final ?? false, events: rows.map(({ final: _, ...event }) => event) };
}

/** Drives the transfer's alarm until its saga is final and every event is delivered. */
async function deliverEverything(transferId: string, timeoutMs = 20_000): Promise<Outbox> {
  const stub = env.TRANSFER_SAGA.getByName(transferId);
  const startedAtMs = Date.now();
  for (;;) {
    const outbox = await outboxOf(transferId);
    if (outbox.final && outbox.events.every((e) => e.delivered)) return outbox;
    if (Date.now() - startedAtMs > timeoutMs) throw new Error(`not all delivered: ${JSON.stringify(outbox)}`);
    // The alarm runs now if one is set; a retry not yet due waits for its backoff (100 ms doubling here).
    if (!(await runDurableObjectAlarm(stub))) await sleep(50);
  }
}

/** A transfer held and waiting for its object, so the receiver can be told how to answer first. */
async function heldTransfer(): Promise<string> {
  const accountId = await fundedAccount(10_000);
  return (await openWithoutObject(pool, accountId, 1_000, sandboxKeys.happy.pix_key)).id;
}

async function attemptsRecorded(transferId: string): Promise<{ http_status: number | null; error: string | null }[]> {
  const { rows } = await pool.query<{ http_status: number | null; error: string | null }>(
    `SELECT a.http_status, a.error FROM transfer_event_attempts a JOIN transfer_events e ON e.id = a.event_id
      WHERE e.transfer_id = $1 ORDER BY a.id`,
    [transferId],
  );
  return rows;
}

describe("outbound events reach the receiver", () => {
  it("delivers every change of a transfer made through the API, signed, in order, the last one what GET answers", async () => {
    const accountId = await fundedAccount(10_000);
    const created = await call("/v1/transfers", {
      method: "POST",
      headers: await clientHeaders(accountId, { "idempotency-key": "events-happy" }),
      body: JSON.stringify({ amount_cents: 1_000, ...sandboxKeys.happy }),
    });
    const { id } = await created.json<{ id: string }>();
    const outbox = await deliverEverything(id);
    const deliveries = await deliveriesOf(id);
    const { acknowledged } = expectOrderedAtLeastOnce(deliveries);
    expect(acknowledged).toEqual(outbox.events.map((e) => e.sequence));
    const final = await getTransfer(accountId, id);
    // One event per hop of its history, in order. The happy key completes; on a loaded machine
    // the send may outlast the tests' 400 ms PROVIDER_TIMEOUT_MS before the sandbox records it,
    // and the saga releases it as `not_sent` after the grace: its events are then those hops.
    const path = final.state === "completed" ? ["completed"] : ["compensating", "compensated"];
    if (final.state !== "completed") expect(final.failure_reason).toBe("not_sent");
    expect(deliveries.map((d) => d.body.data.state)).toEqual(["started", "funds_reserved", "submitted", ...path]);
    expect(deliveries.map((d) => d.body.data.state)).toEqual(final.history.map((h) => h.state));
    expect(deliveries.every((d) => d.body.type === "transfer.updated" && /^evt_/.test(d.body.id))).toBe(true);
    expect(deliveries.at(-1)?.body.data).toEqual(final);
  });

  it("retries a failing receiver with the same webhook-id, records every attempt, and never sends n+1 before n", async () => {
    const id = await heldTransfer();
    await receiverAnswers(id, "fail", 3);
    await env.TRANSFER_SAGA.getByName(id).poke("sweeper");
    const outbox = await deliverEverything(id);
    const deliveries = await deliveriesOf(id);
    const { acknowledged, idsBySequence } = expectOrderedAtLeastOnce(deliveries);
    expect(acknowledged).toEqual([1, 2, 3, 4]);
    // The first event took four tries under one id; nothing else went out meanwhile.
    expect(deliveries.slice(0, 4).map((d) => [d.body.sequence, d.answered])).toEqual([
      [1, "fail"],
      [1, "fail"],
      [1, "fail"],
      [1, "ok"],
    ]);
    expect(new Set(deliveries.slice(0, 4).map((d) => d.webhookId))).toEqual(new Set([idsBySequence.get(1)]));
    expect(outbox.events[0]?.attempts).toBe(4);
    const attempts = await attemptsRecorded(id);
    expect(attempts).toHaveLength(deliveries.length);
    expect(attempts.slice(0, 4).map((a) => a.http_status)).toEqual([503, 503, 503, 204]);
    expect(attempts[0]?.error).toMatch(/^HTTP 503: receiver failing on purpose/);
  });

  it("gives up on an answer that takes longer than the timeout and sends the same event again", async () => {
    const id = await heldTransfer();
    await receiverAnswers(id, "hang", 1, eventAttemptTimeoutMs + 1_000);
    await env.TRANSFER_SAGA.getByName(id).poke("sweeper");
    await deliverEverything(id, 30_000);
    const deliveries = await deliveriesOf(id);
    expect(expectOrderedAtLeastOnce(deliveries).acknowledged).toEqual([1, 2, 3, 4]);
    expect(deliveries.slice(0, 2).map((d) => [d.body.sequence, d.answered])).toEqual([
      [1, "hang"],
      [1, "ok"],
    ]);
    expect((await attemptsRecorded(id))[0]).toEqual({ http_status: null, error: `no answer within ${eventAttemptTimeoutMs} ms` });
  });

  it("waits out a receiver that is down for a while, then delivers everything in order", async () => {
    const id = await heldTransfer();
    await receiverAnswers(id, "down", 5);
    await env.TRANSFER_SAGA.getByName(id).poke("sweeper");
    await deliverEverything(id, 30_000);
    const deliveries = await deliveriesOf(id);
    expect(expectOrderedAtLeastOnce(deliveries).acknowledged).toEqual([1, 2, 3, 4]);
    expect(deliveries.filter((d) => d.answered === "down")).toHaveLength(5);
    expect((await attemptsRecorded(id)).slice(0, 5).every((a) => a.http_status === null && a.error !== null)).toBe(true);
  });

  it("is found by the sweeper when no alarm is left: a commit whose object never ran", async () => {
    const id = await heldTransfer();
    // The object never ran (a crash right after transfer_open's commit): only the sweeper knows.
    expect(await runDurableObjectAlarm(env.TRANSFER_SAGA.getByName(id))).toBe(false);
    await pool.query("UPDATE transfer_events SET next_attempt_at = now() - interval '2 minutes' WHERE transfer_id = $1", [id]);
    const swept = await opsCall("/ops/sweep", { method: "POST" });
    expect(swept.status).toBe(200);
    await swept.body?.cancel();
    const deliveries = await deliveriesOf(id);
    expect(expectOrderedAtLeastOnce(deliveries).acknowledged).toEqual([1, 2]);
    expect(deliveries.map((d) => d.body.data.state)).toEqual(["started", "funds_reserved"]);
  });
});

describe("GET /ops/events", () => {
  it("lists a transfer's events in sequence with every delivery attempt; a bad transfer_id is 400", async () => {
    const id = await heldTransfer();
    await receiverAnswers(id, "fail", 1);
    await env.TRANSFER_SAGA.getByName(id).deliverEvents();
    const response = await opsCall(`/ops/events?transfer_id=${id}`);
    expect(response.status).toBe(200);
    const { data } = opsEventListSchema.parse(await response.json());
    expect(data.map((e) => [e.sequence, e.status, e.attempts.map((a) => a.http_status)])).toEqual([
      [1, "pending", [503]],
      [2, "pending", []],
    ]);
    const undelivered = await opsCall("/ops/events?limit=100");
    expect(opsEventListSchema.parse(await undelivered.json()).data.every((e) => e.status !== "delivered")).toBe(true);
    const bad = await opsCall("/ops/events?transfer_id=nope");
    expect(bad.status).toBe(400);
    await bad.body?.cancel();
    const anonymous = await call(`/ops/events?transfer_id=${id}`);
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();
  });
});
