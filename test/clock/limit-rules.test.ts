// The Pix limits on business time (CONTRACT §4 "Test clock"): the daily limit's São Paulo day
// ends at business midnight, the night window opens and closes on business time, and an
// operator's increase waits 24 h of business time. Each test moves the clock relative to business
// now, to the next São Paulo hour it needs, with an account of its own.
import { describe, expect, it } from "vitest";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { createTransfer, fundedAccount, type TransferJson, waitForFinalState } from "../support/api.ts";
import { advanceClock, advanceClockTo, businessNow, saoPauloAtMs } from "../support/clock.ts";
import { clientLimitsOf, happyKey, putLimits } from "../support/limits.ts";
import { saoPauloDayFromToday } from "../support/schedule.ts";

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;

/** A transfer sent now, once it ended: completed, or compensated with the rule that refused it. */
async function sent(accountId: string, amountCents: number): Promise<TransferJson> {
  const created = await createTransfer(accountId, { amount_cents: amountCents, ...happyKey });
  expect(created.status).toBe(202);
  return waitForFinalState(accountId, (await created.json<TransferJson>()).id);
}

/** Moves business time to `hour`:00 (São Paulo) of the first day after business today. */
async function advanceToTomorrowAt(hour: number, plusMs = 0): Promise<string> {
  const tomorrow = saoPauloDayFromToday(1, await businessNow());
  await advanceClockTo(saoPauloAtMs(tomorrow, hour) + plusMs);
  return tomorrow;
}

describe("Pix limits on business time", () => {
  it("starts a new daily limit at São Paulo's midnight of business time", async () => {
    const accountId = await fundedAccount(20_000);
    expect((await putLimits(accountId, { daily_cents: 5_000 })).status).toBe(200);
    const day = await advanceToTomorrowAt(23, 50 * minuteMs);
    expect(await sent(accountId, 4_000)).toMatchObject({ state: "completed" });
    expect(await sent(accountId, 2_000)).toMatchObject({ state: "compensated", failure_code: "daily" });

    await advanceClockTo(saoPauloAtMs(day, 24) + minuteMs);
    expect(saoPauloClock(await businessNow()).day).not.toBe(day);
    expect(await sent(accountId, 2_000)).toMatchObject({ state: "completed" });
    expect(await clientLimitsOf(accountId)).toMatchObject({ used_today_cents: 2_000 });
  });

  it("opens the night window at its business evening and closes it at business 06:00", async () => {
    const accountId = await fundedAccount(20_000);
    expect((await putLimits(accountId, { night_per_transfer_cents: 1_000 })).status).toBe(200);
    const day = await advanceToTomorrowAt(19, 50 * minuteMs);
    expect(await sent(accountId, 2_000)).toMatchObject({ state: "completed" });

    await advanceClockTo(saoPauloAtMs(day, 20) + minuteMs);
    expect(await sent(accountId, 2_000)).toMatchObject({ state: "compensated", failure_code: "nighttime" });

    await advanceClockTo(saoPauloAtMs(day, 24 + 6) + minuteMs);
    expect(await sent(accountId, 2_000)).toMatchObject({ state: "completed" });
  });

  it("puts an operator's increase in force after 24 h of business time, not before", async () => {
    const accountId = await fundedAccount(20_000);
    await advanceToTomorrowAt(10);
    expect((await putLimits(accountId, { per_transfer_cents: 2_000 })).status).toBe(200);
    const before = await businessNow();
    const raised = await putLimits(accountId, { per_transfer_cents: 5_000 });
    expect(raised.status).toBe(200);
    const { pending } = await raised.json<{ pending: { limit: string; effective_at: string }[] }>();
    expect(pending.map((p) => p.limit)).toEqual(["per_transfer_cents"]);
    const effectiveAtMs = Date.parse(pending[0]?.effective_at ?? "");
    expect(effectiveAtMs).toBeGreaterThanOrEqual(before + 24 * hourMs);
    expect(effectiveAtMs).toBeLessThanOrEqual((await businessNow()) + 24 * hourMs);

    await advanceClock(23 * hourMs);
    expect(await sent(accountId, 3_000)).toMatchObject({ state: "compensated", failure_code: "per_transfer" });
    await advanceClockTo(effectiveAtMs + minuteMs);
    expect(await sent(accountId, 3_000)).toMatchObject({ state: "completed" });
  });
});
