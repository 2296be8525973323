// Scheduled runs on business time (CONTRACT §4 "Test clock"): a scheduled transfer's day, slot and
// evening retry are business instants. Its object's alarm is set at the wall instant that matches
// under the offset now, and after an advance the sweep pokes what became due, so a run whose day
// came starts within 5 s. Each test moves the clock relative to business now (the `clock`
// project shares one clock that only moves forward).
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { scheduledRunAtMs } from "../../src/saga/schedule.ts";
import type { TransferSaga } from "../../src/saga-object.ts";
import { fundedAccount, getTransfer, opsCall, type TransferJson, waitForFinalState, waitForStateLeft } from "../support/api.ts";
import { advanceClock, advanceClockTo, businessNow, clockAnswer, saoPauloAtMs } from "../support/clock.ts";
import { clientLimitsOf } from "../support/limits.ts";
import { filePool } from "../support/pool-test.ts";
import { saoPauloDayFromToday, scheduledBody, scheduleTransfer } from "../support/schedule.ts";

const pool = filePool(1);
/** CONTRACT §4: within 5 s of an advance, whatever became due has started. */
const startsWithinMs = 5_000;

async function scheduledFor(accountId: string, day: string, amountCents = 2_500): Promise<string> {
  const response = await scheduleTransfer(accountId, scheduledBody(day, amountCents));
  expect(response.status).toBe(202);
  return (await response.json<TransferJson>()).id;
}

const alarmOf = (id: string): Promise<number | null> =>
  runInDurableObject(env.TRANSFER_SAGA.getByName(id) as DurableObjectStub<TransferSaga>, (_, state) => state.storage.getAlarm());

async function shortRunsOf(id: string): Promise<number> {
  const { rows } = await pool.query<{ short_runs: number }>("SELECT short_runs FROM transfers WHERE id = $1", [id]);
  return rows[0]?.short_runs ?? -1;
}

describe("scheduled runs on business time", () => {
  it("a transfer scheduled for tomorrow starts within 5 s of an advance past tomorrow 06:00, on tomorrow's limits", async () => {
    const accountId = await fundedAccount(10_000);
    const tomorrow = saoPauloDayFromToday(1, await businessNow());
    const id = await scheduledFor(accountId, tomorrow);

    await advanceClockTo(saoPauloAtMs(tomorrow, 6) + 60_000);
    const started = await waitForStateLeft(accountId, id, "scheduled", startsWithinMs);
    expect(started.history.map((h) => h.reason)).toContain("scheduled_day_reached");
    expect(await waitForFinalState(accountId, id)).toMatchObject({ state: "completed" });
    // It ran in business today's São Paulo day: the daily limit counts it there.
    expect(await clientLimitsOf(accountId)).toMatchObject({ day: tomorrow, used_today_cents: 2_500 });
  });

  it("arms its object at the wall instant of its slot under the offset now", async () => {
    // Ahead of the wall clock whatever ran before, so wall and business slots differ.
    await advanceClock(3_600_000);
    const accountId = await fundedAccount(10_000);
    const day = saoPauloDayFromToday(2, await businessNow());
    const id = await scheduledFor(accountId, day);
    const { offset_ms: offsetMs } = await clockAnswer();
    expect(await alarmOf(id)).toBe(scheduledRunAtMs(day, id, "early") - offsetMs);
  });

  it("retries in the business evening after too little was available in the morning, then completes", async () => {
    const accountId = await fundedAccount(1_000);
    const tomorrow = saoPauloDayFromToday(1, await businessNow());
    const id = await scheduledFor(accountId, tomorrow, 2_500);

    await advanceClockTo(saoPauloAtMs(tomorrow, 6) + 60_000);
    await expect.poll(() => shortRunsOf(id), { timeout: startsWithinMs, interval: 50 }).toBe(1);
    expect((await getTransfer(accountId, id)).state).toBe("scheduled");

    const credited = await opsCall(`/ops/accounts/${accountId}/credits`, {
      method: "POST",
      body: JSON.stringify({ amount_cents: 5_000, idempotency_key: "evening" }),
    });
    expect(credited.status).toBe(200);
    await advanceClockTo(saoPauloAtMs(tomorrow, 21));
    await waitForStateLeft(accountId, id, "scheduled", startsWithinMs);
    expect(await waitForFinalState(accountId, id)).toMatchObject({ state: "completed" });
  });
});
