// The velocity rule counts a scheduled transfer when it runs, never when it is asked for
// (CONTRACT §2): a month of schedules set up in one sitting does not block the account today,
// and their runs count in the ten minutes they happen in.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { runScheduledTransfer } from "../../src/transfers/scheduled.ts";
import { fundedAccount } from "../support/api.ts";
import { bodyOf, scheduleAt, startAt } from "../support/limits.ts";
import { filePool } from "../support/pool-test.ts";

const pool = filePool(2);

const threePer10Min = { velocity_max_per_10_min: 3 };

/** Daytime in São Paulo, on a day far ahead, so no night rule meets the requests below. */
const requestedAt = "2027-02-01T15:00:00Z";

describe("the velocity rule and scheduled transfers", () => {
  it("does not count a schedule when it is asked for", async () => {
    const accountId = await fundedAccount(100_000);
    for (let i = 0; i < 3; i++) expect(bodyOf(await scheduleAt(accountId, 100, requestedAt, "2027-03-01")).state).toBe("scheduled");
    const now = new Date().toISOString();
    expect(bodyOf(await startAt(accountId, 100, now, threePer10Min)).failure_reason).toBeNull();
  });

  it("counts a scheduled transfer from its run on the day", async () => {
    const accountId = await fundedAccount(100_000);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(bodyOf(await scheduleAt(accountId, 100, requestedAt, "2027-03-01")).id);
    // Asked for an hour ago: the wall clock the rule reads cannot be moved, so the request's time is.
    await pool.query("UPDATE transfers SET created_at = created_at - interval '1 hour' WHERE id = ANY($1)", [ids]);
    const rules = { ...readRuleSettings(env), ...threePer10Min };
    for (const id of ids) expect((await runScheduledTransfer(pool, id, Date.now(), rules, null)).outcome).toBe("applied");
    const { rows } = await pool.query<{ state: string }>("SELECT state FROM transfers WHERE id = ANY($1)", [ids]);
    expect(rows.map((r) => r.state)).toEqual(["funds_reserved", "funds_reserved", "funds_reserved"]);
    const refused = bodyOf(await startAt(accountId, 100, new Date().toISOString(), threePer10Min));
    expect(refused).toMatchObject({ state: "compensated", failure_reason: "limit_exceeded", failure_code: "velocity" });
  });

  it("counts a run's ten minutes in business time, the instant it ran at, not the wall clock", async () => {
    const accountId = await fundedAccount(100_000);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(bodyOf(await scheduleAt(accountId, 100, requestedAt, "2027-03-01")).id);
    const rules = { ...readRuleSettings(env), ...threePer10Min };
    const ranAtMs = Date.parse("2027-03-01T07:00:00Z"); // 04:00 on its day
    for (const id of ids) expect((await runScheduledTransfer(pool, id, ranAtMs, rules, null)).outcome).toBe("applied");
    // Five business minutes after the runs they count; eleven after, they no longer do, though
    // on the wall clock they ran a moment ago.
    const within = bodyOf(await startAt(accountId, 100, "2027-03-01T07:05:00Z", threePer10Min));
    expect(within).toMatchObject({ failure_reason: "limit_exceeded", failure_code: "velocity" });
    expect(bodyOf(await startAt(accountId, 100, "2027-03-01T07:11:00Z", threePer10Min)).failure_reason).toBeNull();
  });
});
