// Scheduling is no way around the night (CONTRACT §2 `scheduled_for`): a schedule asked for
// inside the account's night window meets the night rules then (above the night cap, or beyond
// the night total with that window's transfers and other such schedules: 202 compensated), and
// counts toward that window's total until it is known not to pay (canceled, refused or short of
// funds on its day), unless it pays an active trusted recipient. On a fixed clock: São Paulo is
// UTC-3, so 21:00 on 9 January 2027 is 00:00Z on the 10th, and a schedule for the 10th runs in
// the early hours of that same night window.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { scheduledRunAtMs } from "../../src/saga/schedule.ts";
import { runScheduledTransfer } from "../../src/transfers/scheduled.ts";
import { fundedAccount, getBalance, getTransfer } from "../support/api.ts";
import { checkInvariants } from "../support/invariants.ts";
import { bodyOf, limitsAt, scheduleAt, setLimitsAt, startAt } from "../support/limits.ts";
import { filePool } from "../support/pool-test.ts";
import { cancel } from "../support/schedule.ts";
import { trustAt } from "../support/trusted.ts";

const pool = filePool(3);

const night = "2027-01-10T00:00:00Z"; // 21:00 on the 9th
const laterThatNight = "2027-01-10T02:00:00Z"; // 23:00
const runDay = "2027-01-10";
const rules = readRuleSettings(env);

/** Every account these tests use: the invariants (limit usage among them) are checked over all of them at the end. */
const accountsUsed: string[] = [];

async function account(balanceCents: number): Promise<string> {
  const accountId = await fundedAccount(balanceCents);
  accountsUsed.push(accountId);
  return accountId;
}

async function usedTonight(accountId: string): Promise<number> {
  return (await limitsAt(pool, accountId, laterThatNight)).used_tonight_cents;
}

/** Its run on the day, at its early slot (00:00 to 06:00: the same night window), once and for good. */
async function runOnItsDay(id: string): Promise<void> {
  expect((await runScheduledTransfer(pool, id, scheduledRunAtMs(runDay, id, "early"), rules, null)).outcome).toBe("applied");
}

describe("a schedule asked for at night", () => {
  it("is refused at once above the night cap: 202 compensated nighttime, nothing held, nothing to run", async () => {
    const accountId = await account(1_000_000);
    const refused = bodyOf(await scheduleAt(accountId, 100_001, night, runDay));
    expect(refused).toMatchObject({
      state: "compensated",
      failure_reason: "limit_exceeded",
      failure_code: "nighttime",
      scheduled_for: runDay,
    });
    expect(refused.history.map((h) => [h.state, h.reason])).toEqual([
      ["started", null],
      ["compensated", "limit_exceeded"],
    ]);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 1_000_000, held_cents: 0 });
    const { rows } = await pool.query("SELECT next_check_at FROM transfers WHERE id = $1", [refused.id]);
    expect(rows).toEqual([{ next_check_at: null }]);
    expect(await usedTonight(accountId)).toBe(0);
  });

  it("counts toward the night total with the window's transfers and other such schedules", async () => {
    const accountId = await account(1_000_000);
    expect(bodyOf(await scheduleAt(accountId, 60_000, night, runDay)).state).toBe("scheduled");
    expect(await usedTonight(accountId)).toBe(60_000);
    expect(bodyOf(await startAt(accountId, 50_000, laterThatNight)).failure_code).toBe("night_total");
    const beyond = bodyOf(await scheduleAt(accountId, 50_000, laterThatNight, "2027-01-20"));
    expect(beyond).toMatchObject({ state: "compensated", failure_code: "night_total" });
    expect(bodyOf(await startAt(accountId, 30_000, laterThatNight)).failure_reason).toBeNull();
    expect(bodyOf(await scheduleAt(accountId, 10_000, laterThatNight, "2027-01-20")).state).toBe("scheduled");
    expect(await usedTonight(accountId)).toBe(100_000);
    expect(bodyOf(await scheduleAt(accountId, 1, laterThatNight, "2027-01-20")).failure_code).toBe("night_total");
  });

  it("gives its amount back to the night when it is canceled", async () => {
    const accountId = await account(1_000_000);
    const scheduled = bodyOf(await scheduleAt(accountId, 100_000, night, runDay));
    expect(bodyOf(await scheduleAt(accountId, 1, night, runDay)).failure_code).toBe("night_total");
    expect((await cancel(accountId, scheduled.id)).status).toBe(200);
    expect(await usedTonight(accountId)).toBe(0);
    expect(bodyOf(await scheduleAt(accountId, 100_000, night, runDay)).state).toBe("scheduled");
  });

  it("is charged once: its run on the day, in the same window, spends no more of it", async () => {
    const accountId = await account(1_000_000);
    const scheduled = bodyOf(await scheduleAt(accountId, 60_000, night, runDay));
    await runOnItsDay(scheduled.id);
    expect((await getTransfer(accountId, scheduled.id)).state).not.toBe("scheduled");
    expect(await getBalance(accountId)).toMatchObject({ held_cents: 60_000 });
    expect(await usedTonight(accountId)).toBe(60_000);
  });

  it("gives its amount back when its run on the day is refused, or finds too little available", async () => {
    const accountId = await account(50_000);
    const short = bodyOf(await scheduleAt(accountId, 60_000, night, runDay));
    const tooLarge = bodyOf(await scheduleAt(accountId, 30_000, night, runDay));
    expect(await usedTonight(accountId)).toBe(90_000);
    await runOnItsDay(short.id);
    expect(await getTransfer(accountId, short.id)).toMatchObject({ state: "compensated", failure_reason: "insufficient_funds" });
    expect(await usedTonight(accountId)).toBe(30_000);
    // A decrease is in force at once: the run on the day meets it.
    await setLimitsAt(pool, accountId, { per_transfer_cents: 20_000 }, night);
    await runOnItsDay(tooLarge.id);
    expect(await getTransfer(accountId, tooLarge.id)).toMatchObject({ state: "compensated", failure_code: "per_transfer" });
    expect(await usedTonight(accountId)).toBe(0);
  });

  it("follows the account's own night start: at 21:00 before a 22:00 start it is not judged", async () => {
    const accountId = await account(1_000_000);
    await setLimitsAt(pool, accountId, { night_starts_at: "22:00" }, "2027-01-01T12:00:00Z");
    expect(bodyOf(await scheduleAt(accountId, 100_001, night, runDay)).state).toBe("scheduled");
    expect(bodyOf(await scheduleAt(accountId, 100_001, "2027-01-10T01:00:00Z", runDay)).failure_code).toBe("nighttime");
  });

  it("to an active trusted recipient is not judged and charges nothing", async () => {
    const accountId = await account(1_000_000);
    await trustAt(pool, accountId, "10000000108", "cpf", "2027-01-01T12:00:00Z");
    expect(bodyOf(await scheduleAt(accountId, 300_000, night, runDay, {}, "10000000108")).state).toBe("scheduled");
    expect(await usedTonight(accountId)).toBe(0);
  });
});

describe("a schedule asked for in the daytime", () => {
  it("meets no night rule and charges no night", async () => {
    const accountId = await account(1_000_000);
    expect(bodyOf(await scheduleAt(accountId, 100_001, "2027-01-09T15:00:00Z", runDay)).state).toBe("scheduled");
    expect(await usedTonight(accountId)).toBe(0);
  });
});

describe("after all of the above", () => {
  it("keeps every invariant over these accounts, the night's usage equal to its charges", async () => {
    expect(await checkInvariants(pool, { accountIds: accountsUsed })).toEqual([]);
  });
});
