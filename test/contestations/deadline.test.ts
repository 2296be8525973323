// Business time decides a contestation's calendar (CONTRACT §2, §4 "Test clock"): the 80-day
// window after completion, and the 11-day deadline after which one signed ops alert is raised,
// once per contestation. Driven here through the object's own runtime with business time passed
// in, against the real database; the clock project drives the same through the test clock.
import { env } from "cloudflare:test";
import { describe, expect } from "vitest";
import { noticeContestationPastDeadline } from "../../src/alerts/contestation-deadline.ts";
import type { Queryable } from "../../src/db/queryable.ts";
import { verifyWebhook } from "../../src/lib/webhook-signature.ts";
import { providerFor } from "../../src/provider/select.ts";
import { type ContestationPorts, driveContestations } from "../../src/saga-runtime/contestations.ts";
import { sagaPorts } from "../../src/saga-runtime/ports.ts";
import { contestationForOps } from "../../src/transfers/contestation-reads.ts";
import { type OpenContestationInput, openContestation } from "../../src/transfers/contestations.ts";
import { loadSaga } from "../../src/transfers/store.ts";
import { fundedAccount } from "../support/api.ts";
import { completedWithoutProvider } from "../support/completed.ts";
import { alertReceiver } from "../support/logs.ts";
import { poolTest } from "../support/pool-test.ts";

const it = poolTest(3);
const dayMs = 24 * 60 * 60 * 1000;

function input(accountId: string, transferId: string, businessNowMs: number): OpenContestationInput {
  return {
    id: crypto.randomUUID(),
    accountId,
    transferId,
    idempotencyKey: crypto.randomUUID(),
    requestFingerprint: crypto.randomUUID(),
    reason: "fraud",
    details: "A stranger's call, a fake bank officer.",
    // Business time itself: without the test clock, the statement takes it as it is.
    nowMs: businessNowMs,
    testClock: false,
    // As with Efí: nothing to forward, so it stays open and its deadline can pass.
    askProvider: false,
  };
}

/** The object's ports, with business time `aheadMs` ahead of the wall clock and no contestation API. */
function ports(db: Queryable, transferId: string, aheadMs: number, receiver: ReturnType<typeof alertReceiver>): ContestationPorts {
  const { contestations: _none, ...provider } = providerFor(env);
  return {
    ...sagaPorts(env, receiver.runtime, db),
    provider,
    businessNowMs: async () => Date.now() + aheadMs,
    loadSaga: () => loadSaga(db, transferId),
    alertDeadline: (record) =>
      noticeContestationPastDeadline({ ...env, OPS_ALERT_URL: "https://alerts.example/hook" }, receiver.runtime, record),
  };
}

describe("a contestation's calendar, by business time", () => {
  it("may be made up to 80 days after completion, not after", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const late = await completedWithoutProvider(pool, accountId, 1_000);
    expect((await openContestation(pool, input(accountId, late.id, Date.now() + 80 * dayMs + 60_000))).outcome).toBe("window_closed");
    const inTime = await completedWithoutProvider(pool, accountId, 1_000);
    expect((await openContestation(pool, input(accountId, inTime.id, Date.now() + 80 * dayMs - 60_000))).outcome).toBe("created");
  });

  it("past its deadline without a decision: one signed alert, marked past deadline; before it: none, and a wake at it", async ({
    pool,
  }) => {
    const accountId = await fundedAccount(10_000);
    const saga = await completedWithoutProvider(pool, accountId, 1_000);
    const nowMs = Date.now();
    const opened = await openContestation(pool, input(accountId, saga.id, nowMs));
    if (opened.outcome !== "created") throw new Error(opened.outcome);
    expect(Date.parse(String(opened.response.deadline_at)) - Date.parse(String(opened.response.created_at))).toBe(11 * dayMs);

    const early = alertReceiver();
    const before = await driveContestations(ports(pool, saga.id, 10 * dayMs, early), saga.id, "alarm");
    await early.settled();
    expect(early.received).toHaveLength(0);
    // Its wake is the deadline in wall-clock time under the current offset.
    expect(Math.abs((before.wakeAtMs ?? 0) - (Date.parse(String(opened.response.deadline_at)) - 10 * dayMs))).toBeLessThan(5_000);

    const receiver = alertReceiver();
    await driveContestations(ports(pool, saga.id, 12 * dayMs, receiver), saga.id, "alarm");
    await driveContestations(ports(pool, saga.id, 12 * dayMs, receiver), saga.id, "alarm");
    await receiver.settled();
    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0];
    if (request === undefined) throw new Error("no alert");
    expect(request.headers.get("webhook-id")).toBe(`alert_contestation_deadline_${opened.id}`);
    const rawBody = new Uint8Array(await request.arrayBuffer());
    expect(
      await verifyWebhook({ secrets: env.OPS_ALERT_SECRET, headers: request.headers, rawBody, nowSeconds: Date.now() / 1000 }),
    ).toEqual({
      ok: true,
    });
    expect(JSON.parse(new TextDecoder().decode(rawBody))).toMatchObject({
      type: "contestation.past_deadline",
      data: { contestation_id: opened.id, transfer_id: saga.id, state: "open" },
    });
    expect(await contestationForOps(pool, opened.id, Date.now() + 12 * dayMs)).toMatchObject({ past_deadline: true });
    expect(await contestationForOps(pool, opened.id, Date.now())).toMatchObject({ past_deadline: false });
  });
});
