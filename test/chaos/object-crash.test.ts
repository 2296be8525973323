// The saga object dies: right after its ledger commit (the settle happened, the object never
// heard), right after the provider accepted the order (sent, not recorded), and again and
// again while transfers flow. A new instance resumes from its cached record and the database;
// nothing is paid twice or settled twice.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { rateLimitConfig } from "../api/wrangler-config.ts";
import { fundedAccount, getBalance, sandboxPayment } from "../support/api.ts";
import { abortObjects, injectDbFault, sagaConnectionPorts, sandboxKeys, silentKey, tally } from "../support/faults.ts";
import { takeEntriesSnapshot } from "../support/invariants.ts";
import { ledgerFootprint } from "../support/saga.ts";
import { expectInvariants } from "./support/checks.ts";
import { createWithRetries } from "./support/clients.ts";
import { drain, tallyOutcomes } from "./support/drain.ts";
import { openWithoutObject } from "./support/open.ts";
import { resolveReviews } from "./support/operator.ts";
import { faultedFilePool } from "./support/pool.ts";
import { scaled } from "./support/scale.ts";

const pool = faultedFilePool(4);

const amountCents = 1_500;

async function stateOf(transferId: string): Promise<string> {
  const { rows } = await pool.query<{ state: string }>("SELECT state FROM transfers WHERE id = $1", [transferId]);
  return rows[0]?.state ?? "missing";
}

async function waitForState(transferId: string, state: string): Promise<void> {
  for (let i = 0; i < 500 && (await stateOf(transferId)) !== state; i++) await sleep(10);
  expect(await stateOf(transferId)).toBe(state);
}

describe("the object crashes at a step boundary", () => {
  it("after the ledger commit: the next instance finds the settle instead of making it", async () => {
    const accountId = await fundedAccount(10_000);
    const saga = await openWithoutObject(pool, { accountId, amountCents, ...silentKey });
    await env.TRANSFER_SAGA.getByName(saga.id).poke("sweeper");
    expect(await stateOf(saga.id)).toBe("submitted");
    // The settle commits, its reply is lost, and the object dies before it can retry.
    await injectDbFault({ kind: "drop_reply", statementPattern: "transfer_apply", count: 1 });
    await waitForState(saga.id, "completed");
    await abortObjects();
    expect((await env.TRANSFER_SAGA.getByName(saga.id).get())?.state).toBe("submitted");
    expect((await drain(pool, [saga.id], { timeoutMs: 20_000, rescueAfterMs: 2_000, label: "crash_after_commit" })).stuck).toEqual([]);
    expect((await env.TRANSFER_SAGA.getByName(saga.id).poke("webhook")).state).toBe("completed");
    expect(await ledgerFootprint(pool, saga.id)).toMatchObject({ holdStatus: "settled", settleTransactions: 1, entries: 2 });
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000 - amountCents, held_cents: 0 });
    await expectInvariants(pool, { accountIds: [accountId], overdueMsMax: 0 }, "after a crash past the commit");
  });

  it("after the provider accepted, before it was recorded: the resend finds the payment", async () => {
    const accountId = await fundedAccount(10_000);
    const saga = await openWithoutObject(pool, { accountId, amountCents, ...silentKey });
    // The write after the send never reaches Postgres, and the object dies.
    await injectDbFault({ kind: "cut_before", statementPattern: "transfer_apply", count: 1 });
    await env.TRANSFER_SAGA.getByName(saga.id).poke("sweeper");
    await abortObjects();
    expect(await stateOf(saga.id)).toBe("funds_reserved");
    expect(await sandboxPayment(saga.id)).toMatchObject({ made: true, send_calls: 1 });
    expect((await drain(pool, [saga.id], { timeoutMs: 20_000, rescueAfterMs: 2_000, label: "crash_after_send" })).stuck).toEqual([]);
    expect(await stateOf(saga.id)).toBe("completed");
    expect(await sandboxPayment(saga.id)).toMatchObject({ made: true, send_calls: 2 });
    expect(await ledgerFootprint(pool, saga.id)).toMatchObject({ holdStatus: "settled", settleTransactions: 1, entries: 2 });
    await expectInvariants(pool, { accountIds: [accountId], overdueMsMax: 0 }, "after a crash past the send");
  });
});

describe("every object reset, again and again, under load", () => {
  it(
    "completes every transfer once while all objects are aborted every 150 ms",
    async () => {
      // Every attempt counts against the account's rate limit (429 past it), retries included:
      // an account carries only as many transfers as can each spend every attempt, so a
      // client retrying through the resets is never refused for its own persistence.
      const attemptsMax = 20;
      const perAccount = Math.floor(rateLimitConfig("TRANSFER_RATE_LIMIT").limit / attemptsMax);
      const accountCount = Math.ceil(scaled(24, 200) / perAccount);
      const spreadSlots = 8;
      const resetForMs = scaled(2_000, 15_000);
      const accountIds = await Promise.all(Array.from({ length: accountCount }, () => fundedAccount(perAccount * amountCents)));
      const entriesBefore = await takeEntriesSnapshot(pool, accountIds);
      const behaviours = [sandboxKeys.happy, sandboxKeys.silent, sandboxKeys.timeoutSent, sandboxKeys.errorSent, sandboxKeys.lyingWebhook];

      // The resets last their window and no longer: on a slow machine a start can outlast
      // 150 ms every time, and resets kept up until every create answered would never let one.
      const stopAtMs = Date.now() + resetForMs;
      let resets = 0;
      const resetter = (async () => {
        while (Date.now() < stopAtMs) {
          await abortObjects();
          resets++;
          await sleep(150);
        }
      })();
      const created = await Promise.all(
        accountIds.flatMap((accountId, a) =>
          Array.from({ length: perAccount }, async (_, i) => {
            const n = a * perAccount + i;
            // Spread the creates over the reset window.
            await sleep(((n % spreadSlots) * resetForMs) / spreadSlots);
            return createWithRetries(
              accountId,
              { amount_cents: amountCents, ...(behaviours[n % behaviours.length] ?? sandboxKeys.happy) },
              crypto.randomUUID(),
              attemptsMax,
            );
          }),
        ),
      );
      await resetter;
      expect(resets).toBeGreaterThan(3);
      expect(created.map((c) => c.status)).toEqual(Array(created.length).fill(202));
      // Every reset a client met was a 503 with Retry-After, never a 500 that its retry hid.
      expect(
        created.reduce((sum, c) => sum + c.notRetryableServerErrors, 0),
        "5xx answers other than 503 with Retry-After",
      ).toBe(0);
      const ids = created.map((c) => c.transfer?.id ?? "");

      const drained = await drain(pool, ids, { timeoutMs: scaled(60_000, 180_000), rescueAfterMs: 3_000, label: "object_resets" });
      expect(drained.stuck).toEqual([]);
      // Sagas that kept dying past their deadline wait in review; the operator settles what was paid.
      await tallyOutcomes(pool, ids);
      // A saga whose send the resets kept from happening before its deadline is released unsent
      // by that operator: each end follows from the transfer's own payment, never from a count.
      await resolveReviews(pool, ids);
      const { rows } = await pool.query<{ id: string; state: string; failure_reason: string | null }>(
        "SELECT id::text, state, failure_reason FROM transfers WHERE id::text = ANY($1)",
        [ids],
      );
      expect(rows).toHaveLength(ids.length);
      let unsent = 0;
      for (const row of rows) {
        const payment = await sandboxPayment(row.id);
        if (payment?.made === true) {
          expect(row, row.id).toMatchObject({ state: "completed", failure_reason: null });
        } else {
          unsent++;
          expect(payment, `${row.id} released: the provider must never have had it`).toBeNull();
          expect(row, row.id).toMatchObject({ state: "compensated", failure_reason: "not_sent" });
        }
      }
      await tally({ "released_unsent.object_resets": unsent });
      // Dead objects leave no connection behind: once the survivors' last statements end, none is open.
      let open = (await sagaConnectionPorts()).length;
      for (let i = 0; i < 50 && open > 0; i++) {
        await sleep(100);
        open = (await sagaConnectionPorts()).length;
      }
      await tally({ runs: 1, leaked_connections: open });
      expect(open, "saga connections still open after the resets").toBe(0);
      await expectInvariants(pool, { accountIds, entriesBefore, overdueMsMax: 0 }, "after the resets");
    },
    scaled(90_000, 400_000),
  );
});
