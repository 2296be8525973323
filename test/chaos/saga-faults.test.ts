// Faults are not outcomes: a database that drops the saga's connections mid-step is retried,
// never compensated for, and loses nothing. Both faults here are global (every saga's
// connections, the sandbox's one outage), so the file runs in the chaos project, alone.
import { env } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { describe, expect } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { providerFor } from "../../src/provider/select.ts";
import { orderOf } from "../../src/saga-runtime/advance.ts";
import {
  call,
  createTransfer,
  fundedAccount,
  getBalance,
  opsCall,
  sandboxPayment,
  type TransferJson,
  waitForFinalState,
} from "../support/api.ts";
import { poolTest } from "../support/pool-test.ts";
import { ledgerFootprint, openWithoutObject } from "../support/saga.ts";

const it = poolTest(3);

/** Kills every saga-object connection, again and again, for `durationMs`. Returns kills made. */
async function killSagaConnections(pool: Pool, durationMs: number, everyMs: number): Promise<number> {
  let kills = 0;
  const stopAtMs = Date.now() + durationMs;
  while (Date.now() < stopAtMs) {
    const { rows } = await pool.query<{ killed: boolean }>(
      "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = 'pix-saga' AND pid <> pg_backend_pid()",
    );
    kills += rows.filter((r) => r.killed).length;
    await sleep(everyMs);
  }
  return kills;
}

/** A client that retries a failed create with the same Idempotency-Key, as apps must. */
async function createWithRetries(accountId: string, amountCents: number): Promise<TransferJson> {
  const idempotencyKey = crypto.randomUUID();
  for (let attempt = 1; ; attempt++) {
    const response = await createTransfer(
      accountId,
      { amount_cents: amountCents, pix_key: "100.000.001-08", pix_key_type: "cpf" },
      idempotencyKey,
    );
    if (response.status === 202) return response.json<TransferJson>();
    if (attempt >= 10 || response.status < 500) throw new Error(`create answered ${response.status}`);
    await sleep(100 * attempt);
  }
}

describe("database connections killed mid-step", () => {
  it("retries every saga through killed connections: none compensated for the fault, balances exact", async ({ pool }) => {
    const transfersPerAccount = 4;
    const amountCents = 700;
    const accountIds = await Promise.all(Array.from({ length: 5 }, () => fundedAccount(10_000)));
    const killing = killSagaConnections(pool, 2_500, 25);
    const created = await Promise.all(
      accountIds.flatMap((accountId) => Array.from({ length: transfersPerAccount }, () => createWithRetries(accountId, amountCents))),
    );
    const kills = await killing;
    expect(kills).toBeGreaterThan(0);

    const owners = accountIds.flatMap((accountId) => Array<string>(transfersPerAccount).fill(accountId));
    const finals = await Promise.all(created.map((t, i) => waitForFinalState(owners[i] as string, t.id, 30_000)));
    // A killed connection is a fault, never an outcome: every transfer completes, except one
    // whose send outlasted the provider timeout on a busy machine and never reached the
    // provider, which the saga rightly releases as not_sent (nothing was made), or one a busy
    // machine kept from being sure within the tests' 4 s deadline, which waits for a person
    // with its hold kept (the saga's rule: never released on a guess).
    for (const t of finals) {
      if (t.state === "completed") {
        expect(await ledgerFootprint(pool, t.id)).toMatchObject({ holdStatus: "settled", settleTransactions: 1, entries: 2 });
        continue;
      }
      if (t.state === "needs_review") {
        expect(t.failure_reason).toBeNull();
        expect(await ledgerFootprint(pool, t.id)).toMatchObject({ holdStatus: "held", settleTransactions: 0, entries: 0 });
        continue;
      }
      expect(t).toMatchObject({ state: "compensated", failure_reason: "not_sent" });
      expect((await sandboxPayment(t.id))?.made ?? false).toBe(false);
    }
    for (const accountId of accountIds) {
      const count = (state: string) => finals.filter((t, i) => owners[i] === accountId && t.state === state).length;
      const paidCents = count("completed") * amountCents;
      const heldCents = count("needs_review") * amountCents;
      expect(await getBalance(accountId)).toEqual({
        account_id: accountId,
        balance_cents: 10_000 - paidCents,
        held_cents: heldCents,
        available_cents: 10_000 - paidCents - heldCents,
      });
    }
    const report = await (await opsCall("/ops/reconciliation")).json<{ ok: boolean }>();
    expect(report.ok).toBe(true);
  });
});

describe("the provider down for a while", () => {
  function startOutage(durationMs: number): Promise<Response> {
    return call("/sandbox/provider/outage", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ duration_ms: durationMs }),
    });
  }

  it("keeps an accepted transfer waiting through an outage, then completes it", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    // The provider has the payment (sent before the outage), but nothing was recorded yet.
    const saga = await openWithoutObject(pool, accountId, 1_000, "silent@sandbox.test");
    expect((await providerFor(env).send(orderOf(saga))).kind).toBe("accepted");
    expect((await startOutage(1_500)).status).toBe(200);
    await env.TRANSFER_SAGA.getByName(saga.id).poke("sweeper");

    const final = await waitForFinalState(accountId, saga.id, 20_000);
    expect(final.state).toBe("completed");
    const story = await (await opsCall(`/ops/transfers/${saga.id}`)).json<{
      provider_calls: { kind: string; outcome: string }[];
    }>();
    // The outage was seen (unknown answers) and waited out, not taken as a failure.
    expect(story.provider_calls[0]).toMatchObject({ kind: "send", outcome: "unknown:http_503" });
    expect(story.provider_calls.some((p) => p.kind === "status" && p.outcome.startsWith("unknown"))).toBe(true);
    expect(await ledgerFootprint(pool, saga.id)).toMatchObject({ holdStatus: "settled", settleTransactions: 1 });
    expect(await getBalance(accountId)).toEqual({ account_id: accountId, balance_cents: 9_000, held_cents: 0, available_cents: 9_000 });
    expect((await sandboxPayment(saga.id))?.made).toBe(true);
  });

  it("releases a send the provider never received only once it reports not_found after the grace window", async () => {
    const accountId = await fundedAccount(10_000);
    expect((await startOutage(800)).status).toBe(200);
    const transfer = await (
      await createTransfer(accountId, { amount_cents: 1_000, pix_key: "silent@sandbox.test", pix_key_type: "email" })
    ).json<TransferJson>();
    const final = await waitForFinalState(accountId, transfer.id, 20_000);
    expect(final).toMatchObject({ state: "compensated", failure_reason: "not_sent" });
    const story = await (await opsCall(`/ops/transfers/${transfer.id}`)).json<{
      provider_calls: { kind: string; outcome: string }[];
    }>();
    expect(story.provider_calls[0]).toMatchObject({ kind: "send", outcome: "unknown:http_503" });
    expect(story.provider_calls.at(-1)).toMatchObject({ kind: "status", outcome: "not_found" });
    expect(await sandboxPayment(transfer.id)).toBeNull();
    expect(await getBalance(accountId)).toEqual({ account_id: accountId, balance_cents: 10_000, held_cents: 0, available_cents: 10_000 });
  });
});
