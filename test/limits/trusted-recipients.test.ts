// What an active trusted recipient exempts a transfer from (CONTRACT §2): the nighttime
// per-transfer cap, the night total and the new-key review, judged at the decision's instant;
// never the per-transfer or daily limits. On a fixed clock (São Paulo is UTC-3: 21:00 there is
// 00:00Z), the recipient asked for through the store at a chosen instant (test/support/trusted.ts).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { removeTrustedRecipient } from "../../src/limits/trusted-recipients.ts";
import { runScheduledTransfer } from "../../src/transfers/scheduled.ts";
import { fundedAccount } from "../support/api.ts";
import { bodyOf, limitsAt, scheduleAt, setLimitsAt, startAt } from "../support/limits.ts";
import { filePool } from "../support/pool-test.ts";
import { trustAt, trustedDelayMs } from "../support/trusted.ts";

const pool = filePool(3);

/** The payee of every transfer below unless said otherwise, as stored (startAt skips the edge's normalisation). */
const babysitter = "10000000108";
const stranger = "stranger@example.com";
const night = "2026-12-01T00:00:00Z"; // 21:00 on 30 November, São Paulo

describe("a transfer to an active trusted recipient", () => {
  it("is exempt from the night cap and the night total, and spends none of the night", async () => {
    const accountId = await fundedAccount(1_000_000);
    await setLimitsAt(pool, accountId, { night_total_cents: 50_000 }, "2026-11-29T12:00:00Z");
    await trustAt(pool, accountId, babysitter, "cpf", "2026-11-29T12:00:00Z");
    // R$ 3,000.00 at 21:00: above the night cap (R$ 1,000.00) and the night total (R$ 500.00).
    const trusted = bodyOf(await startAt(accountId, 300_000, night, {}, babysitter));
    expect(trusted).toMatchObject({ state: "funds_reserved", failure_reason: null });
    expect(await limitsAt(pool, accountId, night)).toMatchObject({ used_tonight_cents: 0, remaining_tonight_cents: 50_000 });
    // Anyone else still meets both night rules, with the whole night total left for them.
    expect(bodyOf(await startAt(accountId, 100_001, night, {}, stranger)).failure_code).toBe("nighttime");
    expect(bodyOf(await startAt(accountId, 50_000, night, {}, stranger)).failure_reason).toBeNull();
    expect(bodyOf(await startAt(accountId, 1, night, {}, stranger)).failure_code).toBe("night_total");
    expect(bodyOf(await startAt(accountId, 100_000, night, {}, babysitter)).failure_reason).toBeNull();
  });

  it("exempts nothing while pending, from its effective_at on, and nothing once removed", async () => {
    const accountId = await fundedAccount(1_000_000);
    const asked = await trustAt(pool, accountId, babysitter, "cpf", "2026-11-30T23:30:00Z"); // 20:30
    expect(asked).toMatchObject({
      state: "pending",
      effective_at: new Date(Date.parse("2026-11-30T23:30:00Z") + trustedDelayMs).toISOString(),
    });
    expect(bodyOf(await startAt(accountId, 100_001, night, {}, babysitter)).failure_code).toBe("nighttime");
    // The next evening, one minute before and at its effective_at (20:29 and 20:30, both night).
    expect(bodyOf(await startAt(accountId, 100_001, "2026-12-01T23:29:00Z", {}, babysitter)).failure_code).toBe("nighttime");
    expect(bodyOf(await startAt(accountId, 100_001, "2026-12-01T23:30:00Z", {}, babysitter)).failure_reason).toBeNull();
    expect(await removeTrustedRecipient(pool, accountId, { pixKey: babysitter, pixKeyType: "cpf" })).toBe("removed");
    expect(bodyOf(await startAt(accountId, 100_001, "2026-12-01T23:45:00Z", {}, babysitter)).failure_code).toBe("nighttime");
  });

  it("is exempt from the new-key review, not from the per-transfer and daily limits", async () => {
    const accountId = await fundedAccount(1_000_000);
    await trustAt(pool, accountId, babysitter, "cpf", "2026-11-29T12:00:00Z");
    const day = "2026-12-01T15:00:00Z"; // 12:00
    const review = { new_key_review_above_cents: 1_000 };
    expect(bodyOf(await startAt(accountId, 2_000, day, review, babysitter)).state).toBe("funds_reserved");
    expect(bodyOf(await startAt(accountId, 2_000, day, review, stranger)).state).toBe("needs_review");

    await setLimitsAt(pool, accountId, { per_transfer_cents: 5_000, daily_cents: 12_000 }, "2026-12-01T12:00:00Z");
    expect(bodyOf(await startAt(accountId, 5_001, day, {}, babysitter)).failure_code).toBe("per_transfer");
    // 4,000 of today's 12,000 are spent above: 5,000 fits, the next 5,000 does not.
    expect(bodyOf(await startAt(accountId, 5_000, day, {}, babysitter)).failure_reason).toBeNull();
    expect(bodyOf(await startAt(accountId, 5_000, day, {}, babysitter)).failure_code).toBe("daily");
  });

  it("is judged on a scheduled transfer's day at the instant of its run", async () => {
    const accountId = await fundedAccount(1_000_000);
    const askedMs = Date.now();
    await trustAt(pool, accountId, babysitter, "cpf", new Date(askedMs).toISOString());
    const review = { ...readRuleSettings(env), new_key_review_above_cents: 1_000 };
    const early = bodyOf(await scheduleAt(accountId, 2_000, new Date(askedMs).toISOString(), "2027-03-01", {}, babysitter));
    const late = bodyOf(await scheduleAt(accountId, 2_000, new Date(askedMs).toISOString(), "2027-03-01", {}, babysitter));
    const beforeMs = askedMs + trustedDelayMs - 60_000;
    expect((await runScheduledTransfer(pool, early.id, beforeMs, review, null)).outcome).toBe("applied");
    expect((await runScheduledTransfer(pool, late.id, askedMs + trustedDelayMs, review, null)).outcome).toBe("applied");
    const { rows } = await pool.query<{ id: string; state: string }>("SELECT id::text, state FROM transfers WHERE id = ANY($1)", [
      [early.id, late.id],
    ]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.state]))).toEqual({ [early.id]: "needs_review", [late.id]: "funds_reserved" });
  });
});
