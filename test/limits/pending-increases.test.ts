// An operator's decrease is in force at once; an increase 24 h later (CONTRACT §5), judged by the
// clock it is given: the limits PUT answers, GET /v1/limits and the rules before the hold.
import { describe, expect, it } from "vitest";
import { fundedAccount, opsCall } from "../support/api.ts";
import { bodyOf, limitsAt, putLimits, setLimitsAt, startAt } from "../support/limits.ts";
import { filePool } from "../support/pool-test.ts";

const pool = filePool(3);

const t0 = "2026-11-20T15:00:00Z"; // 12:00 in São Paulo: daytime throughout
const hours = (n: number) => new Date(Date.parse(t0) + n * 3_600_000).toISOString();

describe("limit changes", () => {
  it("applies a decrease at once, through the API too", async () => {
    const accountId = await fundedAccount(10_000);
    const answer = await putLimits(accountId, { per_transfer_cents: 2_000, night_total_cents: 50_000 });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ per_transfer_cents: 2_000, night_total_cents: 50_000, pending: [] });
  });

  it("puts an increase off for 24 h, then the rules and the answer use it", async () => {
    const accountId = await fundedAccount(100_000);
    await setLimitsAt(pool, accountId, { per_transfer_cents: 2_000 }, t0);
    const raised = await setLimitsAt(pool, accountId, { per_transfer_cents: 5_000 }, hours(1));
    expect(raised.per_transfer_cents).toBe(2_000);
    expect(raised.pending).toEqual([{ limit: "per_transfer_cents", value_cents: 5_000, effective_at: "2026-11-21T16:00:00.000Z" }]);
    expect(bodyOf(await startAt(accountId, 3_000, hours(24))).failure_code).toBe("per_transfer");
    expect(bodyOf(await startAt(accountId, 3_000, hours(25))).failure_reason).toBeNull();
    expect(await limitsAt(pool, accountId, hours(25))).toMatchObject({ per_transfer_cents: 5_000, pending: [] });
  });

  it("drops a waiting increase when a decrease of the same limit comes, and keeps the others", async () => {
    const accountId = await fundedAccount(0);
    await setLimitsAt(pool, accountId, { per_transfer_cents: 2_000, daily_cents: 10_000 }, t0);
    const waiting = await setLimitsAt(pool, accountId, { per_transfer_cents: 5_000, daily_cents: 20_000 }, hours(1));
    expect(waiting.pending.map((p) => p.limit)).toEqual(["daily_cents", "per_transfer_cents"]);
    const lowered = await setLimitsAt(pool, accountId, { per_transfer_cents: 1_000, daily_cents: 20_000 }, hours(2));
    expect(lowered).toMatchObject({ per_transfer_cents: 1_000, daily_cents: 10_000 });
    // The same increase asked again keeps its time: asking twice does not push it back.
    expect(lowered.pending).toEqual([{ limit: "daily_cents", value_cents: 20_000, effective_at: "2026-11-21T16:00:00.000Z" }]);
  });

  it("treats a later night start as an increase and an earlier one as a decrease", async () => {
    const accountId = await fundedAccount(0);
    const later = await setLimitsAt(pool, accountId, { night_starts_at: "22:00" }, t0);
    expect(later.night_starts_at).toBe("20:00");
    expect(later.pending).toEqual([{ limit: "night_starts_at", value: "22:00", effective_at: "2026-11-21T15:00:00.000Z" }]);
    expect((await limitsAt(pool, accountId, hours(24))).night_starts_at).toBe("22:00");
    const earlier = await setLimitsAt(pool, accountId, { night_starts_at: "19:00" }, hours(25));
    expect(earlier).toMatchObject({ night_starts_at: "19:00", pending: [] });
  });

  it("counts going back to a higher default as an increase", async () => {
    const accountId = await fundedAccount(0);
    await setLimitsAt(pool, accountId, { night_total_cents: 10_000 }, t0);
    const back = await setLimitsAt(pool, accountId, {}, hours(1));
    expect(back.night_total_cents).toBe(10_000);
    expect(back.pending).toEqual([{ limit: "night_total_cents", value_cents: 100_000, effective_at: "2026-11-21T16:00:00.000Z" }]);
  });

  it("audits the values in force before and after, and what waits", async () => {
    const accountId = await fundedAccount(0);
    await putLimits(accountId, { daily_cents: 5_000 });
    await putLimits(accountId, { daily_cents: 9_000 });
    const audit = await (await opsCall(`/ops/audit?account_id=${accountId}`)).json<{
      data: { action: string; details: Record<string, unknown> }[];
    }>();
    const [raise] = audit.data.filter((e) => e.action === "limits_changed");
    expect(raise?.details).toMatchObject({
      old: { daily_cents: 5_000, night_total_cents: null },
      new: { daily_cents: 5_000 },
      pending: [{ limit: "daily_cents", value: 9_000 }],
    });
  });
});
