// Provider reconciliation end to end against the sandbox, through the Worker's own routes: run
// by both test projects (the generic adapter in `suite`, the Efí adapter in `efi`), since each
// reads the statement in its own dialect. The database is shared with test files running at the
// same time, so each assertion looks at this file's own transfers.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { finishedTransfer, fundedAccount, getBalance, getTransfer, opsCall, sandboxPayment, type TransferJson } from "../support/api.ts";
import { type RunStatement, reconciliationRunsMax, statementReadLost } from "../support/reconciliation-runs.ts";

type Divergence = { kind: string; transfer_id: string; end_to_end_id: string | null; ours: unknown; provider: unknown };
type Run = {
  run_id: string;
  ok: boolean;
  statement: RunStatement;
  checked: number;
  returns_applied: number;
  divergences: Divergence[];
};

export async function reconcile(fromMs: number, toMs: number = Date.now() + 1_000): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    const response = await opsCall("/ops/reconciliation/provider", {
      method: "POST",
      body: JSON.stringify({ from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() }),
    });
    expect(response.status).toBe(200);
    const run = await response.json<Run>();
    if (statementReadLost(run.statement) && attempt < reconciliationRunsMax) continue;
    // A statement we could not read reports nothing: every check below would hold vacuously.
    expect(run.statement).toEqual({ complete: true, problem: null });
    return run;
  }
}

function transferTo(accountId: string, pixKey: string, amountCents: number): Promise<TransferJson> {
  return finishedTransfer(accountId, { amount_cents: amountCents, pix_key: pixKey, pix_key_type: "email" });
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const giveUpAtMs = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > giveUpAtMs) throw new Error(`${what}: not after ${timeoutMs} ms`);
    await sleep(50);
  }
}

const mine = (run: Run, ids: readonly string[]) => run.divergences.filter((d) => ids.includes(d.transfer_id));

/** `happyTransfers`: how many go well in the clean run (Efí's sends take longer: a token, a gate). */
export function providerReconciliationScenarios(adapter: string, happyTransfers: number): void {
  describe(`provider reconciliation against the sandbox (${adapter})`, () => {
    it("a run over many transfers that went well reports none of them, and /latest answers it", async () => {
      const startMs = Date.now() - 1_000;
      // Four accounts: one account's burst would meet the anti-fraud velocity rule.
      const accounts = await Promise.all([1, 2, 3, 4].map(() => fundedAccount(1_000_000)));
      const keys = [
        ...Array.from({ length: happyTransfers }, (_, n) => `cliente-${n}@example.com`),
        "reject@sandbox.test",
        "late-reject@sandbox.test",
      ];
      // Four at a time: a burst on a loaded machine outlasts the suite's 400 ms provider timeout.
      const finals: TransferJson[] = [];
      for (let i = 0; i < keys.length; i += accounts.length) {
        const batch = keys.slice(i, i + accounts.length);
        finals.push(...(await Promise.all(batch.map((key, n) => transferTo(accounts[n] ?? "", key, 1_000 + i + n)))));
      }
      expect(finals.filter((t) => t.state === "completed").length).toBeGreaterThan(0);
      const run = await reconcile(startMs);
      expect(
        mine(
          run,
          finals.map((t) => t.id),
        ),
      ).toEqual([]);
      expect(run.checked).toBeGreaterThanOrEqual(keys.length);
      const latest = await opsCall("/ops/reconciliation/provider/latest");
      expect(latest.status).toBe(200);
      expect(((await latest.json()) as Run).run_id >= run.run_id).toBe(true);
      const audit = await (await opsCall("/ops/audit?actor=ops-token&limit=50")).json<{
        data: { action: string; details: { run_id?: number } }[];
      }>();
      expect(audit.data.some((a) => a.action === "reconciliation_run" && String(a.details.run_id) === run.run_id)).toBe(true);
    }, 90_000);

    it("late-confirm@: paid after release is a case with its evidence until an operator decides it", async () => {
      const startMs = Date.now() - 1_000;
      const accountId = await fundedAccount(100_000);
      // The sandbox lets the late Pix leave only once the saga has given up on it (CONTRACT §4).
      const released = await transferTo(accountId, "late-confirm@sandbox.test", 4_321);
      expect(released.state).toBe("compensated");
      // At once, or (a not-found the saga read as past its grace, the sandbox not quite)
      // lateConfirmUnclaimedMs past the grace window.
      await until(
        "the late Pix leaves",
        () => sandboxPayment(released.id),
        (p) => p?.status === "confirmed",
        15_000,
      );

      const run = await reconcile(startMs);
      const [found] = mine(run, [released.id]);
      expect(found).toMatchObject({
        kind: "paid_after_release",
        transfer_id: released.id,
        end_to_end_id: expect.stringMatching(/^E/),
        ours: { state: "compensated", amount_cents: 4_321, released_at: expect.any(String) },
        provider: { status: "confirmed", amount_cents: 4_321 },
      });
      // Never corrected against the customer: the released money stays theirs.
      expect((await getBalance(accountId)).balance_cents).toBe(100_000);

      const open = async () =>
        (await (await opsCall("/ops/reconciliation/provider/cases")).json<{ data: { transfer_id: string }[] }>()).data;
      expect((await open()).find((c) => c.transfer_id === released.id)).toMatchObject({
        transfer_id: released.id,
        account_id: accountId,
        end_to_end_id: found?.end_to_end_id,
        decision: null,
        evidence: { release: { at: expect.any(String) }, provider: { status: "confirmed" }, ours: { state: "compensated" } },
      });
      // A second run keeps the one case open.
      await reconcile(startMs);
      expect((await open()).filter((c) => c.transfer_id === released.id)).toHaveLength(1);

      const decide = (body: unknown) =>
        opsCall(`/ops/reconciliation/provider/cases/${released.id}/decision`, {
          method: "POST",
          body: JSON.stringify(body),
        });
      const refused = await decide({ decision: "written_off" });
      expect(refused.status).toBe(400);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
      const decided = await decide({ decision: "written_off", note: "Recipient unreachable; the house absorbs it." });
      expect(decided.status).toBe(200);
      expect(await decided.json()).toMatchObject({
        transfer_id: released.id,
        decision: { decision: "written_off", note: "Recipient unreachable; the house absorbs it.", decided_by: "ops-token" },
      });
      expect((await decide({ decision: "recovered", note: "again" })).status).toBe(409);
      expect((await open()).some((c) => c.transfer_id === released.id)).toBe(false);

      const audit = await (await opsCall(`/ops/audit?account_id=${accountId}`)).json<{
        data: { action: string; actor: string; transfer_id: string; details: Record<string, unknown> }[];
      }>();
      expect(audit.data.filter((a) => a.action === "transfer_resolved")).toEqual([
        expect.objectContaining({
          actor: "ops-token",
          transfer_id: released.id,
          details: expect.objectContaining({
            case: "paid_after_release",
            decision: "written_off",
            note: "Recipient unreachable; the house absorbs it.",
          }),
        }),
      ]);
    }, 60_000);

    it("returned@: a poke and a reconciliation that see the return together credit it once", async () => {
      const startMs = Date.now() - 1_000;
      const accountId = await fundedAccount(100_000);
      const completed = await transferTo(accountId, "returned@sandbox.test", 2_222);
      expect(completed.state).toBe("completed");
      const stub = env.TRANSFER_SAGA.getByName(completed.id);
      await Promise.all([stub.poke("webhook"), reconcile(startMs), stub.poke("sweeper"), reconcile(startMs)]);
      const returned = await until(
        "the return is credited",
        () => getTransfer(accountId, completed.id),
        (t) => t.returned_cents === 2_222,
      );
      expect(returned.returns).toHaveLength(1);
      expect((await getBalance(accountId)).balance_cents).toBe(100_000);
      const run = await reconcile(startMs);
      expect(mine(run, [completed.id])).toEqual([]);
    });

    it("refuses a window that is not RFC 3339, runs backwards or spans more than 24 hours, with a problem", async () => {
      const hourMs = 3_600_000;
      for (const body of [
        { from: "yesterday", to: new Date().toISOString() },
        { from: new Date().toISOString(), to: new Date(Date.now() - hourMs).toISOString() },
        { from: new Date(Date.now() - 25 * hourMs).toISOString(), to: new Date().toISOString() },
        { from: new Date(Date.now() - hourMs).toISOString() },
      ]) {
        const response = await opsCall("/ops/reconciliation/provider", { method: "POST", body: JSON.stringify(body) });
        expect(response.status).toBe(400);
        expect(response.headers.get("content-type")).toContain("application/problem+json");
      }
    });
  });
}
