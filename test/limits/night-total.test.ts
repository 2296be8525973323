// The Central Bank's nighttime limit caps the sum of one night window (20:00 to 06:00 São Paulo,
// or from the account's own start), not only each transfer: refused before the hold, in the
// opening transaction, and given back when a transfer is compensated. All on a fixed clock
// (São Paulo is UTC-3: 20:00 there is 23:00Z).
import { describe, expect, it } from "vitest";
import { fundedAccount, getBalance, waitForFinalState } from "../support/api.ts";
import { bodyOf, limitsAt, setLimitsAt, startAt } from "../support/limits.ts";
import { filePool } from "../support/pool-test.ts";

const pool = filePool(3);

const defaultNightTotalCents = 100_000;

describe("the night window total", () => {
  it("counts from 20:00 to 05:59 toward one evening, and nothing at 19:59 or 06:00", async () => {
    const accountId = await fundedAccount(1_000_000);
    // 19:59 on the 1st: daytime, the whole night total is still there afterwards.
    expect(bodyOf(await startAt(accountId, 100_000, "2026-12-01T22:59:00Z")).failure_reason).toBeNull();
    expect(await limitsAt(pool, accountId, "2026-12-01T22:59:00Z")).toMatchObject({
      night_evening: "2026-12-01",
      used_tonight_cents: 0,
      remaining_tonight_cents: defaultNightTotalCents,
    });
    // 20:00: the night begins; R$ 1,000.00 fills it exactly, one centavo more is refused.
    expect(bodyOf(await startAt(accountId, 60_000, "2026-12-01T23:00:00Z")).failure_reason).toBeNull();
    expect(bodyOf(await startAt(accountId, 40_000, "2026-12-02T02:30:00Z")).failure_reason).toBeNull(); // 23:30
    const refused = bodyOf(await startAt(accountId, 1, "2026-12-02T03:30:00Z")); // 00:30, the same night
    expect(refused).toMatchObject({ state: "compensated", failure_reason: "limit_exceeded", failure_code: "night_total" });
    // 05:59 the next morning still belongs to the evening of the 1st.
    expect(bodyOf(await startAt(accountId, 1, "2026-12-02T08:59:00Z")).failure_code).toBe("night_total");
    expect(await limitsAt(pool, accountId, "2026-12-02T08:59:00Z")).toMatchObject({
      night_evening: "2026-12-01",
      used_tonight_cents: defaultNightTotalCents,
      remaining_tonight_cents: 0,
    });
    // 06:00: daytime again, and the evening of the 2nd starts from nothing.
    expect(bodyOf(await startAt(accountId, 1, "2026-12-02T09:00:00Z")).failure_reason).toBeNull();
    expect(bodyOf(await startAt(accountId, 100_000, "2026-12-02T23:00:00Z")).failure_reason).toBeNull();
    expect(await limitsAt(pool, accountId, "2026-12-02T23:00:00Z")).toMatchObject({
      night_evening: "2026-12-02",
      used_tonight_cents: 100_000,
    });
  });

  it("starts counting at the account's own 22:00 start, not before", async () => {
    const accountId = await fundedAccount(1_000_000);
    await setLimitsAt(pool, accountId, { night_starts_at: "22:00", night_total_cents: 50_000 }, "2026-11-28T12:00:00Z");
    expect(bodyOf(await startAt(accountId, 50_000, "2026-12-02T00:59:00Z")).failure_reason).toBeNull(); // 21:59
    expect(bodyOf(await startAt(accountId, 50_000, "2026-12-02T01:00:00Z")).failure_reason).toBeNull(); // 22:00
    expect(bodyOf(await startAt(accountId, 1, "2026-12-02T01:01:00Z")).failure_code).toBe("night_total");
  });

  it("lets concurrent transfers use exactly the night total, never more", async () => {
    const accountId = await fundedAccount(1_000_000);
    const night = "2026-12-02T00:00:00Z"; // 21:00
    const transfers = (await Promise.all(Array.from({ length: 20 }, () => startAt(accountId, 7_000, night)))).map(bodyOf);
    const allowed = transfers.filter((t) => t.failure_reason === null);
    // 14 × R$ 70.00 = R$ 980.00; a 15th would pass R$ 1,000.00.
    expect(allowed).toHaveLength(14);
    expect(transfers.filter((t) => t.failure_code === "night_total")).toHaveLength(6);
    expect(await limitsAt(pool, accountId, night)).toMatchObject({ used_tonight_cents: 98_000, remaining_tonight_cents: 2_000 });
    // Exactly what was let through is committed: held or already paid, never a centavo more.
    const balance = await getBalance(accountId);
    expect(balance.available_cents).toBe(1_000_000 - 98_000);
  });

  it("gives a compensated transfer's amount back to its night", async () => {
    const accountId = await fundedAccount(1_000_000);
    const night = "2026-12-02T00:00:00Z";
    const rejected = bodyOf(await startAt(accountId, 100_000, night, {}, "reject@sandbox.test"));
    expect((await waitForFinalState(accountId, rejected.id)).failure_reason).toBe("provider_rejected");
    expect(await limitsAt(pool, accountId, night)).toMatchObject({
      used_tonight_cents: 0,
      remaining_tonight_cents: defaultNightTotalCents,
    });
    expect(bodyOf(await startAt(accountId, 100_000, night)).failure_reason).toBeNull();
    expect(await limitsAt(pool, accountId, night)).toMatchObject({ used_tonight_cents: 100_000 });
  });

  it("takes the total from the account's limits, and 0 allows nothing at night", async () => {
    const accountId = await fundedAccount(1_000_000);
    await setLimitsAt(pool, accountId, { night_total_cents: 0 }, "2026-12-01T12:00:00Z");
    expect(bodyOf(await startAt(accountId, 1, "2026-12-02T00:00:00Z")).failure_code).toBe("night_total");
    expect(bodyOf(await startAt(accountId, 1, "2026-12-01T22:00:00Z")).failure_reason).toBeNull(); // 19:00
  });
});
