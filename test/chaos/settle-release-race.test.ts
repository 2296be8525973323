// Settle against release. In the database: two writes decided from `submitted`, one settling and
// one releasing, race; the guard lets exactly one through and the ledger moves once. End to end:
// a webhook-triggered status check races the deadline alarm (and an object crash) just as the
// provider confirms; whichever wins, a paid transfer is never released.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import type { TransferSaga } from "../../src/saga-object.ts";
import { applyChange, type ProviderCallRecord } from "../../src/transfers/store.ts";
import { fundedAccount, sandboxPayment } from "../support/api.ts";
import { abortObjects, silentKey, tally } from "../support/faults.ts";
import { filePool } from "../support/pool-test.ts";
import { ledgerFootprint } from "../support/saga.ts";
import { expectInvariants } from "./support/checks.ts";
import { drain, tallyOutcomes } from "./support/drain.ts";
import { openWithoutObject, startThroughObject } from "./support/open.ts";
import { resolveReviews } from "./support/operator.ts";
import { scaled } from "./support/scale.ts";
import { sendWebhook } from "./support/webhooks.ts";

const pool = filePool(6);

const amountCents = 1_000;
/**
 * One account takes every transfer here: lift the anti-fraud velocity rule (30 per 10 minutes)
 * and the night window's total (R$ 1,000), which 200 transfers of R$ 10 pass between 20:00 and
 * 06:00 in São Paulo: the full run would otherwise test the clock, not the race.
 */
const manyPerAccount = { velocity_max_per_10_min: 100_000, night_total_cents: Number.MAX_SAFE_INTEGER };

function call(kind: "send" | "status", outcome: string): ProviderCallRecord {
  return { kind, outcome, httpStatus: 200, detail: null, durationMs: 1 };
}

function change(
  path: ("submitted" | "completed" | "compensating" | "compensated")[],
  ledger: "settle" | "release" | null,
  outcome: string,
) {
  return {
    path,
    ledger,
    failureReason: ledger === "release" ? ("provider_rejected" as const) : null,
    failureCode: ledger === "release" ? "race" : null,
    endToEndId: null,
    checksMade: 0,
    nextCheckAtMs: ledger === null ? Date.now() + 60_000 : null,
    lastSentAtMs: Date.now(),
    reason: `race: ${outcome}`,
    actor: "provider" as const,
    sent: ledger === null,
    evidence: { provider_call: ledger === null ? "send" : "status", outcome },
  };
}

describe("settle against release", () => {
  it("in the database: of two writes decided from one state, exactly one applies and the hold resolves once", async () => {
    const pairs = scaled(20, 200);
    const accountId = await fundedAccount(pairs * amountCents);
    const sagas = await Promise.all(
      Array.from({ length: pairs }, () => openWithoutObject(pool, { accountId, amountCents, ...silentKey, rules: manyPerAccount })),
    );
    for (const saga of sagas) {
      expect(
        (await applyChange(pool, saga.id, "funds_reserved", change(["submitted"], null, "accepted"), call("send", "accepted"))).outcome,
      ).toBe("applied");
    }
    const results = await Promise.all(
      sagas.map((saga) =>
        Promise.all([
          applyChange(pool, saga.id, "submitted", change(["completed"], "settle", "confirmed"), call("status", "confirmed")),
          applyChange(
            pool,
            saga.id,
            "submitted",
            change(["compensating", "compensated"], "release", "rejected:race"),
            call("status", "rejected:race"),
          ),
        ]),
      ),
    );
    let settled = 0;
    for (const [i, [settle, release]] of results.entries()) {
      expect([settle.outcome, release.outcome].sort()).toEqual(["applied", "state_mismatch"]);
      const footprint = await ledgerFootprint(pool, sagas[i]?.id ?? "");
      if (settle.outcome === "applied") {
        settled++;
        expect(footprint).toMatchObject({ holdStatus: "settled", settleTransactions: 1, entries: 2 });
      } else {
        expect(footprint).toMatchObject({ holdStatus: "released", settleTransactions: 0, entries: 0 });
      }
    }
    await tally({ operations: pairs * 3, "race.settle_won": settled, "race.release_won": pairs - settled });
    const { rows } = await pool.query<{ balance_cents: string; held_cents: string }>(
      "SELECT balance_cents::text, held_cents::text FROM accounts WHERE id = $1",
      [accountId],
    );
    expect(rows[0]).toEqual({ balance_cents: String((pairs - settled) * amountCents), held_cents: "0" });
    // No provider stands behind these hand-written answers: the provider checks do not apply.
    await expectInvariants(pool, { accountIds: [accountId], providerTruth: false }, "after the races");
  });

  it(
    "end to end: a webhook-triggered check against the deadline alarm never releases a paid transfer",
    async () => {
      const transfers = scaled(20, 200);
      const accountId = await fundedAccount(transfers * amountCents);
      const started = await Promise.all(
        Array.from({ length: transfers }, (_, i) =>
          // Deadlines spread around the sandbox's confirmation (SANDBOX_CONFIRM_MS after the send).
          startThroughObject({ accountId, amountCents, ...silentKey, deadlineMs: 100 + (i % 10) * 25, rules: manyPerAccount }),
        ),
      );
      const ids = started.map((s) => s.id);
      expect(started.map((s) => s.outcome)).toEqual(Array(transfers).fill("created"));
      await Promise.all(
        ids.map(async (id, i) => {
          await sleep(100 + (i % 10) * 25);
          const stub = env.TRANSFER_SAGA.getByName(id);
          // A call cut short by the crash is one more fault, not a failure of the test.
          await Promise.allSettled([
            sendWebhook("true", id, "confirmed"),
            runInDurableObject(stub, (instance: TransferSaga) => instance.alarm()),
            i % 7 === 0 ? abortObjects() : Promise.resolve(),
          ]);
        }),
      );
      const drained = await drain(pool, ids, { timeoutMs: 60_000, rescueAfterMs: 2_000, label: "deadline_race" });
      expect(drained.stuck).toEqual([]);
      const reviewed = await pool.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM transfers WHERE id::text = ANY($1) AND state = 'needs_review'",
        [ids],
      );
      await tally({
        "race.deadline_won": Number(reviewed.rows[0]?.n ?? 0),
        "race.webhook_won": transfers - Number(reviewed.rows[0]?.n ?? 0),
      });

      // Whoever won, a careful operator settles what the provider paid and releases what it
      // never had: on a slow machine a deadline of 100 ms can pass before the send, and that
      // transfer waits in review unsent. Each end follows from the transfer's own payment.
      await tallyOutcomes(pool, ids);
      await resolveReviews(pool, ids);
      let unsent = 0;
      for (const id of ids) {
        const payment = await sandboxPayment(id);
        if (payment?.made === true) {
          expect(await ledgerFootprint(pool, id)).toMatchObject({ holdStatus: "settled", settleTransactions: 1 });
        } else {
          unsent++;
          expect(payment, `${id} released: the provider must never have had it`).toBeNull();
          expect(await ledgerFootprint(pool, id)).toMatchObject({ holdStatus: "released", settleTransactions: 0, entries: 0 });
        }
      }
      await tally({ "race.deadline_before_send": unsent });
      await expectInvariants(pool, { accountIds: [accountId], overdueMsMax: 0 }, "after the deadline races");
    },
    scaled(60_000, 300_000),
  );
});
