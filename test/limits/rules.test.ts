// Pix rules before the hold: limits, the nighttime window, daily caps and anti-fraud, enforced
// inside the opening transaction so they hold under concurrency.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { personCall } from "../support/access.ts";
import {
  call,
  clientHeaders,
  createTransfer,
  fundedAccount,
  getBalance,
  getTransfer,
  opsCall,
  sandboxPayment,
  type TransferJson,
  waitForFinalState,
  waitForReturned,
} from "../support/api.ts";
import { bodyOf, happyKey, limitsAt, putLimits as setLimits, setLimitsAt, startAt } from "../support/limits.ts";
import { filePool } from "../support/pool-test.ts";

const pool = filePool(3);

async function limits(accountId: string): Promise<Record<string, unknown>> {
  return (await call("/v1/limits", { headers: await clientHeaders(accountId) })).json();
}

describe("the daily cap", () => {
  it("lets exactly the cap through 20 concurrent transfers and refuses the rest as daily", async () => {
    const accountId = await fundedAccount(100_000);
    expect((await setLimits(accountId, { daily_cents: 19_000 })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 20 }, () => createTransfer(accountId, { amount_cents: 1_000, ...happyKey })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    const transfers = await Promise.all(answers.map((a) => a.json<TransferJson>()));
    const refused = transfers.filter((t) => t.failure_reason === "limit_exceeded");
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ state: "compensated", failure_code: "daily" });
    expect(await limits(accountId)).toMatchObject({ daily_cents: 19_000, used_today_cents: 19_000, remaining_today_cents: 0 });
    const finals = await Promise.all(transfers.filter((t) => t.failure_reason === null).map((t) => waitForFinalState(accountId, t.id)));
    // The cap is what this checks. Twenty sends reach the sandbox at once; on a loaded machine
    // one may outlast the tests' 400 ms PROVIDER_TIMEOUT_MS before the sandbox records it, and
    // the saga then releases it as `not_sent` after the grace (its rule for a payment the
    // provider never had). Either way only the completed ones' money left the account.
    expect(finals.every((t) => t.state === "completed" || (t.state === "compensated" && t.failure_reason === "not_sent"))).toBe(true);
    const paidCents = finals.filter((t) => t.state === "completed").reduce((sum, t) => sum + t.amount_cents, 0);
    expect((await getBalance(accountId)).balance_cents).toBe(100_000 - paidCents);
  });

  it("gives a compensated transfer's amount back to the day", async () => {
    const accountId = await fundedAccount(100_000);
    await setLimits(accountId, { daily_cents: 5_000 });
    const rejected = await (
      await createTransfer(accountId, { amount_cents: 5_000, pix_key: "reject@sandbox.test", pix_key_type: "email" })
    ).json<TransferJson>();
    expect((await waitForFinalState(accountId, rejected.id)).failure_reason).toBe("provider_rejected");
    expect(await limits(accountId)).toMatchObject({ used_today_cents: 0, remaining_today_cents: 5_000 });
    const next = await (await createTransfer(accountId, { amount_cents: 5_000, ...happyKey })).json<TransferJson>();
    expect(next.failure_reason).toBeNull();
    expect(await limits(accountId)).toMatchObject({ used_today_cents: 5_000, remaining_today_cents: 0 });
  });

  it("counts São Paulo days, not UTC days", async () => {
    const accountId = await fundedAccount(100_000);
    await setLimits(accountId, { daily_cents: 1_000 });
    // 02:59 UTC on the 30th is 23:59 on the 29th in São Paulo; 03:00 UTC is a new local day.
    expect(bodyOf(await startAt(accountId, 1_000, "2026-11-30T02:59:00Z")).failure_reason).toBeNull();
    expect(bodyOf(await startAt(accountId, 1_000, "2026-11-30T02:59:30Z")).failure_code).toBe("daily");
    expect(bodyOf(await startAt(accountId, 1_000, "2026-11-30T03:00:00Z")).failure_reason).toBeNull();
  });
});

describe("the per-transfer and nighttime limits", () => {
  it("refuses an amount above the account's own per-transfer limit before anything is sent", async () => {
    const accountId = await fundedAccount(100_000);
    await setLimits(accountId, { per_transfer_cents: 2_000 });
    const refused = await (await createTransfer(accountId, { amount_cents: 2_001, ...happyKey })).json<TransferJson>();
    expect(refused).toMatchObject({ state: "compensated", failure_reason: "limit_exceeded", failure_code: "per_transfer" });
    expect(await sandboxPayment(refused.id)).toBeNull();
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 100_000, held_cents: 0 });
  });

  it.each([
    ["21:00", "2026-12-01T00:00:00Z", "nighttime"],
    ["19:59", "2026-11-30T22:59:00Z", null],
    ["20:00", "2026-11-30T23:00:00Z", "nighttime"],
    ["00:30 (after midnight)", "2026-12-01T03:30:00Z", "nighttime"],
    ["05:59", "2026-12-01T08:59:00Z", "nighttime"],
    ["06:00", "2026-12-01T09:00:00Z", null],
  ])("at %s São Paulo, R$ 1,000.01 is refused as %s", async (_local, instant, expectedCode) => {
    const accountId = await fundedAccount(1_000_000);
    const transfer = bodyOf(await startAt(accountId, 100_001, instant));
    expect(transfer.failure_code).toBe(expectedCode);
    expect(transfer.failure_reason).toBe(expectedCode === null ? null : "limit_exceeded");
    // R$ 1,000.00 exactly is always within the default night cap.
    expect(bodyOf(await startAt(accountId, 100_000, instant)).failure_reason).toBeNull();
  });

  it("moves the window start per account (22:00) and keeps it ending at 06:00", async () => {
    const accountId = await fundedAccount(1_000_000);
    // A later start loosens the rules: in force 24 h after it was set.
    await setLimitsAt(pool, accountId, { night_starts_at: "22:00", night_per_transfer_cents: 50_000 }, "2026-11-29T12:00:00Z");
    expect(await limitsAt(pool, accountId, "2026-12-01T00:59:00Z")).toMatchObject({
      night_starts_at: "22:00",
      night_ends_at: "06:00",
      night_per_transfer_cents: 50_000,
    });
    expect(bodyOf(await startAt(accountId, 60_000, "2026-12-01T00:59:00Z")).failure_reason).toBeNull(); // 21:59
    expect(bodyOf(await startAt(accountId, 60_000, "2026-12-01T01:00:00Z")).failure_code).toBe("nighttime"); // 22:00
  });

  it("validates operator limits and answers 404 for an unknown account", async () => {
    const accountId = await fundedAccount(0);
    expect((await setLimits(accountId, { night_starts_at: "17:00" })).status).toBe(400);
    expect((await setLimits(accountId, { daily_cents: -1 })).status).toBe(400);
    expect((await setLimits(accountId, { per_transfer_cents: 0 })).status).toBe(400);
    expect((await setLimits(accountId, { surprise: 1 })).status).toBe(400);
    expect((await setLimits("no-such-account-x", {})).status).toBe(404);
    // Absent fields mean the defaults.
    expect(await (await setLimits(accountId, {})).json()).toMatchObject({
      daily_cents: readRuleSettings(env).daily_cents,
      night_starts_at: "20:00",
    });
  });
});

describe("anti-fraud rules", () => {
  it("velocity: refuses the transfer past N in ten minutes, with the rule in the evidence", async () => {
    const accountId = await fundedAccount(100_000);
    const now = new Date().toISOString();
    for (let i = 0; i < 3; i++)
      expect(bodyOf(await startAt(accountId, 100, now, { velocity_max_per_10_min: 3 })).failure_reason).toBeNull();
    const refused = bodyOf(await startAt(accountId, 100, now, { velocity_max_per_10_min: 3 }));
    expect(refused).toMatchObject({ state: "compensated", failure_reason: "limit_exceeded", failure_code: "velocity" });
    expect(await sandboxPayment(refused.id)).toBeNull();
    const story = await (await opsCall(`/ops/transfers/${refused.id}`)).json<{
      history: { evidence: unknown }[];
    }>();
    expect(story.history.at(-1)?.evidence).toMatchObject({ rule: "velocity", max_per_10_min: 3 });
  });

  it("new key: holds a large first payment for review before sending; approval sends it, and the key is then known", async () => {
    const accountId = await fundedAccount(100_000);
    const rules = { new_key_review_above_cents: 1_000 };
    const now = new Date().toISOString();
    const held = bodyOf(await startAt(accountId, 2_000, now, rules));
    expect(held.state).toBe("needs_review");
    expect(held.history.map((h) => h.state)).toEqual(["started", "funds_reserved", "needs_review"]);
    expect(await getBalance(accountId)).toMatchObject({ held_cents: 2_000 });
    expect(await sandboxPayment(held.id)).toBeNull();
    const story = await (await opsCall(`/ops/transfers/${held.id}`)).json<{ history: { evidence: unknown }[] }>();
    expect(story.history.at(-1)?.evidence).toMatchObject({ rule: "new_key_review", threshold_cents: 1_000 });

    // A person approves what anti-fraud held (ops-token may not: CONTRACT §5).
    const approved = await personCall(`/ops/transfers/${held.id}/resolve`, {
      method: "POST",
      body: JSON.stringify({ outcome: "approve", note: "customer confirmed by phone" }),
    });
    expect(approved.status).toBe(200);
    const final = await waitForFinalState(accountId, held.id);
    expect(final.state).toBe("completed");
    expect((await sandboxPayment(held.id))?.made).toBe(true);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 98_000, held_cents: 0 });

    // The key has been paid before: the next large payment to it goes straight out.
    expect(bodyOf(await startAt(accountId, 2_000, now, rules)).state).not.toBe("needs_review");
  });

  it("new key: one small completed payment does not make a key known for a large one", async () => {
    const accountId = await fundedAccount(100_000);
    const rules = { new_key_review_above_cents: 1_000 };
    const now = new Date().toISOString();
    const key = `small-first-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const small = bodyOf(await startAt(accountId, 100, now, rules, key));
    expect((await waitForFinalState(accountId, small.id)).state).toBe("completed");
    const large = bodyOf(await startAt(accountId, 2_000, now, rules, key));
    expect(large.state).toBe("needs_review");
    expect(await sandboxPayment(large.id)).toBeNull();
    const story = await (await opsCall(`/ops/transfers/${large.id}`)).json<{ history: { evidence: unknown }[] }>();
    expect(story.history.at(-1)?.evidence).toMatchObject({ rule: "new_key_review", threshold_cents: 1_000, paid_cents: 100 });
  });

  it("new key: a payment that came back whole does not vouch for the key", async () => {
    const accountId = await fundedAccount(100_000);
    const now = new Date().toISOString();
    // Paid under a higher threshold, so it goes straight out; then the sandbox returns it all.
    const returned = bodyOf(await startAt(accountId, 2_000, now, { new_key_review_above_cents: 5_000 }, "returned@sandbox.test"));
    expect((await waitForFinalState(accountId, returned.id)).state).toBe("completed");
    await waitForReturned(accountId, returned.id, 2_000, 20_000);
    const next = bodyOf(await startAt(accountId, 2_000, now, { new_key_review_above_cents: 1_000 }, "returned@sandbox.test"));
    expect(next.state).toBe("needs_review");
  });

  it("shows a client its limits but no anti-fraud threshold", async () => {
    const accountId = await fundedAccount(1_000);
    const shown = await limits(accountId);
    expect(shown).toMatchObject({ per_transfer_cents: expect.any(Number), daily_cents: expect.any(Number) });
    expect(Object.keys(shown)).not.toContain("velocity_max_per_10_min");
    expect(Object.keys(shown)).not.toContain("new_key_review_above_cents");
  });

  it("new key: rejecting the review releases the hold and gives the day back", async () => {
    const accountId = await fundedAccount(100_000);
    const held = bodyOf(
      await startAt(accountId, 2_000, new Date().toISOString(), { new_key_review_above_cents: 1_000 }, "someone-new@example.com"),
    );
    expect(held.state).toBe("needs_review");
    const rejected = await opsCall(`/ops/transfers/${held.id}/resolve`, {
      method: "POST",
      body: JSON.stringify({ outcome: "not_sent", note: "fraud" }),
    });
    expect(rejected.status).toBe(200);
    expect(await getTransfer(accountId, held.id)).toMatchObject({ state: "compensated", failure_reason: "not_sent" });
    expect(await getBalance(accountId)).toEqual({ account_id: accountId, balance_cents: 100_000, held_cents: 0, available_cents: 100_000 });
    expect(await limits(accountId)).toMatchObject({ used_today_cents: 0 });
    expect(await sandboxPayment(held.id)).toBeNull();
  });
});
