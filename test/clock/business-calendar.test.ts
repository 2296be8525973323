// The two central calendar decisions follow business time, not the wall clock: POST
// /v1/transfers reads `scheduled_for` against business today, and GET /v1/limits counts business
// today's usage (CONTRACT §4 "Test clock": business time governs São Paulo days).
import { describe, expect, it } from "vitest";
import { transferSchema } from "../../src/contract/schemas.ts";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { createTransfer, fundedAccount } from "../support/api.ts";
import { advanceClock, businessNow } from "../support/clock.ts";
import { clientLimitsOf } from "../support/limits.ts";
import { saoPauloDayFromToday, scheduledBody, scheduleTransfer } from "../support/schedule.ts";

const dayMs = 86_400_000;

describe("business time in calendar rules", () => {
  it("schedules against business today: the wall clock's tomorrow is past once the clock moved three days", async () => {
    await advanceClock(3 * dayMs);
    const accountId = await fundedAccount(10_000);
    const wallTomorrow = saoPauloDayFromToday(1);
    const refused = await scheduleTransfer(accountId, scheduledBody(wallTomorrow));
    expect(refused.status).toBe(400);
    const businessTomorrow = saoPauloDayFromToday(1, await businessNow());
    const accepted = await scheduleTransfer(accountId, scheduledBody(businessTomorrow));
    expect(accepted.status).toBe(202);
    expect(transferSchema.parse(await accepted.json())).toMatchObject({ state: "scheduled", scheduled_for: businessTomorrow });
  });

  it("counts the daily limit's usage in business today, and a day's advance starts a new one", async () => {
    await advanceClock(2 * dayMs);
    const accountId = await fundedAccount(10_000);
    const created = await createTransfer(accountId, { amount_cents: 1_000, pix_key: "100.000.001-08", pix_key_type: "cpf" });
    expect(created.status).toBe(202);
    const before = await clientLimitsOf(accountId);
    expect(before.day).toBe(saoPauloClock(await businessNow()).day);
    expect(before.day).not.toBe(saoPauloClock(Date.now()).day);
    expect(before.used_today_cents).toBe(1_000);
    await advanceClock(dayMs);
    const after = await clientLimitsOf(accountId);
    expect(after.day).toBe(saoPauloDayFromToday(1, Date.parse(`${before.day}T12:00:00-03:00`)));
    expect(after.used_today_cents).toBe(0);
  });
});
