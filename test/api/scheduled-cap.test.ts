// MAX_PENDING_SCHEDULED (CONTRACT §1, §2): an account has at most that many scheduled transfers
// waiting, one-off schedules and recurring occurrences alike. Past it a new schedule is `422`
// `/too-many-scheduled` and writes nothing, exactly under concurrent requests (decided under
// the account's row lock); a transfer sent at once is not a schedule and is not refused.
// The account is filled to just below the cap through transfer_open itself, the function the
// route calls, so the test does not spend the route's rate limit on a hundred requests.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { recurringTransferSchema, transferSchema } from "../../src/contract/schemas.ts";
import { localClockFields } from "../../src/lib/sao-paulo-clock.ts";
import { openTransfer } from "../../src/transfers/store.ts";
import { createTransfer, fundedAccount } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { createRecurring, recurrenceCount, recurringBody } from "../support/recurring.ts";
import { cancel, saoPauloDayFromToday, scheduledBody, scheduleTransfer } from "../support/schedule.ts";
import { expectJson, expectProblem, footprint, validTransfer } from "./helpers.ts";

const pool = filePool(4);
const capOfSchedules = readRuleSettings(env).pending_scheduled_max;

/** `count` schedules for tomorrow opened as the route opens them. */
async function fillWithSchedules(accountId: string, count: number): Promise<void> {
  const tomorrow = saoPauloDayFromToday(1);
  const rules = readRuleSettings(env);
  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    const opened = await openTransfer(pool, {
      id,
      accountId,
      amountCents: 100,
      pixKey: "10000000108",
      pixKeyType: "cpf",
      description: null,
      idempotencyKey: `seed-${i}`,
      requestFingerprint: `seed-${i}`,
      deadlineMs: 4_000,
      ...localClockFields(Date.now()),
      rules,
      schedule: { scheduledFor: tomorrow, runAtMs: Date.now() + 86_400_000 },
    });
    expect(opened.outcome).toBe("created");
  }
}

describe("the cap on waiting schedules", () => {
  it("is the contract's default of 100", () => {
    expect(capOfSchedules).toBe(100);
  });

  it("refuses a schedule past the cap with 422 /too-many-scheduled, writing nothing, and takes one again after a cancel", async () => {
    const accountId = await fundedAccount(10_000);
    await fillWithSchedules(accountId, capOfSchedules - 1);
    const last = await expectJson(await scheduleTransfer(accountId, scheduledBody(saoPauloDayFromToday(2))), 202, transferSchema);
    expect(last.state).toBe("scheduled");

    const before = await footprint(pool, accountId);
    const refused = await expectProblem(
      await scheduleTransfer(accountId, scheduledBody(saoPauloDayFromToday(3))),
      422,
      "too-many-scheduled",
    );
    expect(refused.detail).toContain(String(capOfSchedules));
    await expectProblem(await createRecurring(accountId, recurringBody()), 422, "too-many-scheduled");
    expect(await footprint(pool, accountId)).toEqual(before);
    expect(await recurrenceCount(pool, accountId)).toBe(0);

    // A transfer sent at once is no schedule: the cap does not refuse it (its own rules judge it).
    expect((await createTransfer(accountId, validTransfer)).status).toBe(202);

    expect((await cancel(accountId, last.id)).status).toBe(200);
    expect((await expectJson(await createRecurring(accountId, recurringBody()), 201, recurringTransferSchema)).state).toBe("active");
    await expectProblem(await scheduleTransfer(accountId, scheduledBody(saoPauloDayFromToday(3))), 422, "too-many-scheduled");
  });

  it("lets exactly the room left through when requests race for it, one-off and recurring alike", async () => {
    const accountId = await fundedAccount(0);
    await fillWithSchedules(accountId, capOfSchedules - 2);
    const answers = await Promise.all([
      scheduleTransfer(accountId, scheduledBody(saoPauloDayFromToday(2))),
      createRecurring(accountId, recurringBody()),
      scheduleTransfer(accountId, scheduledBody(saoPauloDayFromToday(3))),
      createRecurring(accountId, recurringBody({ frequency: "weekly" })),
      scheduleTransfer(accountId, scheduledBody(saoPauloDayFromToday(4))),
    ]);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202 || s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 422)).toHaveLength(3);
    const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM transfers WHERE account_id = $1 AND state = 'scheduled'", [
      accountId,
    ]);
    expect(Number(rows[0]?.n)).toBe(capOfSchedules);
  });
});
