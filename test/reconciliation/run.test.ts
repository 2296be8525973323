// One reconciliation run against the real database with a scripted provider: every divergence
// kind from the provider's side, returns applied once across runs, cases opened for
// paid-after-release, and the run recorded with its audit row. Other test files write
// transfers into the same database at the same time: assertions look at this file's own.
import { describe, expect, it } from "vitest";
import { runProviderReconciliation } from "../../src/reconciliation/run.ts";
import { listCases } from "../../src/reconciliation/store.ts";
import type { StatusAnswer } from "../../src/saga/answers.ts";
import { fundedAccount, getBalance } from "../support/api.ts";
import { checkInvariants } from "../support/invariants.ts";
import { filePool } from "../support/pool-test.ts";
import { item, scriptedProvider, sentTransfer } from "./support.ts";

const pool = filePool(4);

const e2e = "E12345678202612011200ABCDEFGHIJK";

function windowFrom(startMs: number) {
  return { fromMs: startMs, toMs: Date.now() + 1_000 };
}

function mine<T extends { transfer_id?: unknown }>(list: readonly T[], ids: readonly string[]): T[] {
  return list.filter((d) => ids.includes(String(d.transfer_id)));
}

describe("runProviderReconciliation", () => {
  it("reports each divergence kind the provider's statement gives, with both sides", async () => {
    const startMs = Date.now() - 1_000;
    const accountId = await fundedAccount(100_000);
    const released = await sentTransfer(pool, accountId, 1_100, "released");
    const missing = await sentTransfer(pool, accountId, 1_200, "completed");
    const otherAmount = await sentTransfer(pool, accountId, 1_300, "completed");
    const waiting = await sentTransfer(pool, accountId, 1_400, "submitted");
    const clean = await sentTransfer(pool, accountId, 1_500, "completed");
    const stranger = crypto.randomUUID();
    const provider = scriptedProvider({
      items: [
        item(released, 1_100, { endToEndId: e2e }),
        item(otherAmount, 1_301),
        item(waiting, 1_400, { status: "rejected" }),
        item(clean, 1_500),
        item(stranger, 999),
      ],
    });
    const run = await runProviderReconciliation({ db: pool, provider }, windowFrom(startMs), "ops-token");
    const ids = [released, missing, otherAmount, waiting, clean, stranger];
    const divergences = mine(run.divergences as { kind: string; transfer_id: string }[], ids);
    expect(divergences.map((d) => [d.kind, d.transfer_id]).sort()).toEqual(
      [
        ["amount_mismatch", otherAmount],
        ["missing_at_provider", missing],
        ["paid_after_release", released],
        ["state_mismatch", waiting],
        ["unknown_at_provider_key", stranger],
      ].sort(),
    );
    expect(divergences.find((d) => d.kind === "paid_after_release")).toEqual({
      kind: "paid_after_release",
      transfer_id: released,
      end_to_end_id: e2e,
      ours: { state: "compensated", amount_cents: 1_100, end_to_end_id: null, failure_reason: "not_sent", released_at: expect.any(String) },
      provider: { status: "confirmed", amount_cents: 1_100, end_to_end_id: e2e },
    });
    // Missing only after asking the provider about it.
    expect(provider.statusAsked).toContain(missing);
    expect(provider.statusAsked).not.toContain(clean);
    expect(run.ok).toBe(false);
    expect(run.checked).toBeGreaterThanOrEqual(ids.length);
    expect(run.statement).toEqual({ complete: true, problem: null });

    const [opened] = await listCases(pool, { open: true, limit: 1, transferId: released });
    expect(opened).toMatchObject({
      transfer_id: released,
      account_id: accountId,
      amount_cents: 1_100,
      end_to_end_id: e2e,
      run_id: run.run_id,
      decision: null,
      evidence: { release: { reason: "not found after the grace window", actor: "saga" }, provider: { status: "confirmed" } },
    });
    const { rows } = await pool.query<{ actor: string; details: { kind: string; run_id: number } }>(
      "SELECT actor, details FROM operator_actions WHERE action = 'reconciliation_run' AND details->>'run_id' = $1",
      [run.run_id],
    );
    expect(rows).toEqual([{ actor: "ops-token", details: expect.objectContaining({ kind: "provider", checked: run.checked }) }]);
  });

  it("a completed transfer the statement missed is no divergence when the provider confirms it", async () => {
    const startMs = Date.now() - 1_000;
    const accountId = await fundedAccount(100_000);
    const edge = await sentTransfer(pool, accountId, 2_000, "completed");
    const status = new Map<string, StatusAnswer>([[edge, { kind: "confirmed", endToEndId: e2e, returns: [] }]]);
    const run = await runProviderReconciliation(
      { db: pool, provider: scriptedProvider({ items: [], status }) },
      windowFrom(startMs),
      "ops-token",
    );
    expect(mine(run.divergences as { transfer_id: string }[], [edge])).toEqual([]);
  });

  it("applies the returns the statement lists once, however many runs see them", async () => {
    const startMs = Date.now() - 1_000;
    const accountId = await fundedAccount(10_000);
    const returned = await sentTransfer(pool, accountId, 3_000, "completed");
    expect((await getBalance(accountId)).balance_cents).toBe(7_000);
    const returns = [
      { id: `D${crypto.randomUUID().replaceAll("-", "").slice(0, 31)}`, amountCents: 1_000, reason: "fraud" as const, atMs: Date.now() },
      {
        id: `D${crypto.randomUUID().replaceAll("-", "").slice(0, 31)}`,
        amountCents: 2_000,
        reason: "fraud" as const,
        atMs: Date.now() + 1,
      },
    ];
    const provider = scriptedProvider({ items: [item(returned, 3_000, { returns })] });
    const first = await runProviderReconciliation({ db: pool, provider }, windowFrom(startMs), "ops-token");
    expect(first.returns_applied).toBeGreaterThanOrEqual(2);
    expect((await getBalance(accountId)).balance_cents).toBe(10_000);
    const again = await Promise.all([
      runProviderReconciliation({ db: pool, provider }, windowFrom(startMs), "ops-token"),
      runProviderReconciliation({ db: pool, provider }, windowFrom(startMs), "ops-token"),
    ]);
    expect(mine(again[0].divergences as { transfer_id: string }[], [returned])).toEqual([]);
    expect((await getBalance(accountId)).balance_cents).toBe(10_000);
    const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM transfer_returns WHERE transfer_id = $1", [returned]);
    expect(Number(rows[0]?.n)).toBe(2);
    // Written straight through the saga record, with no provider behind it: I6-I8 do not apply.
    const violations = await checkInvariants(pool, { accountIds: [accountId], providerTruth: false });
    expect(violations.filter((v) => v.invariant !== "I8")).toEqual([]);
  });

  it("flags a return the ledger refuses (beyond what was sent) as amount_mismatch, crediting nothing", async () => {
    const startMs = Date.now() - 1_000;
    const accountId = await fundedAccount(10_000);
    const transfer = await sentTransfer(pool, accountId, 1_000, "completed");
    const returnOf = (amountCents: number) => ({
      id: `D${crypto.randomUUID().replaceAll("-", "").slice(0, 31)}`,
      amountCents,
      reason: "fraud" as const,
      atMs: Date.now(),
    });
    const provider = (returns: ReturnType<typeof returnOf>[]) => scriptedProvider({ items: [item(transfer, 1_000, { returns })] });
    await runProviderReconciliation({ db: pool, provider: provider([returnOf(800)]) }, windowFrom(startMs), "ops-token");
    // A later statement lists another return that would bring more back than was sent.
    const run = await runProviderReconciliation({ db: pool, provider: provider([returnOf(300)]) }, windowFrom(startMs), "ops-token");
    const divergences = mine(run.divergences as { kind: string; transfer_id: string; provider: { detail: string } }[], [transfer]);
    expect(divergences.map((d) => [d.kind, d.provider.detail.endsWith("exceeds_transfer_amount")])).toEqual([["amount_mismatch", true]]);
    expect((await getBalance(accountId)).balance_cents).toBe(9_800);
  });

  it("an incomplete statement reports nothing missing and says why", async () => {
    const startMs = Date.now() - 1_000;
    const accountId = await fundedAccount(10_000);
    const completed = await sentTransfer(pool, accountId, 1_000, "completed");
    const provider = scriptedProvider({
      items: [],
      statement: (items) => ({ complete: false, why: "http_503", items, pages: 0, evidence: null }),
    });
    const run = await runProviderReconciliation({ db: pool, provider }, windowFrom(startMs), "ops-token");
    expect(run.ok).toBe(false);
    expect(run.statement).toEqual({ complete: false, problem: "http_503" });
    expect(mine(run.divergences as { transfer_id: string }[], [completed])).toEqual([]);
    expect(provider.statusAsked).toEqual([]);
  });
});
