// Contestations under faults: completed Pix are contested while the database is slow and resets
// connections, the provider is down for a while, objects are evicted and alarms fire twice. The
// client retries a 503 with the same Idempotency-Key. Every contestation ends as the sandbox
// decides it, its refund arrives once as a fraud return, and the invariants hold, I16 among them:
// each contestation's returned_cents is its transfer's fraud returns since it was made.
import type { Pool } from "@neondatabase/serverless";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { finishedTransfer, fundedAccount, opsCall } from "../support/api.ts";
import { type ContestationJson, contest, getContestation } from "../support/contestations.ts";
import { evictSaga, fireAlarmTwice, injectDbFault, providerOutage, tally } from "../support/faults.ts";
import { takeEntriesSnapshot } from "../support/invariants.ts";
import { expectInvariants } from "./support/checks.ts";
import { faultedFilePool } from "./support/pool.ts";
import { scaled } from "./support/scale.ts";

const pool = faultedFilePool(3);
const amountCents = 1_001;
const perKind = scaled(2, 8);

/** Each key and what its contestation must end with (state, cents back). */
const kinds = [
  { key: () => `med-accept-${crypto.randomUUID().slice(0, 8)}@sandbox.test`, state: "accepted", backCents: amountCents },
  { key: () => `med-partial-${crypto.randomUUID().slice(0, 8)}@sandbox.test`, state: "partially_accepted", backCents: 500 },
  { key: () => `payee-${crypto.randomUUID().slice(0, 8)}@example.com`, state: "rejected", backCents: 0 },
] as const;

/** The client's retry: a 503 (or a dropped answer) is asked again with the same key. */
async function contestRetrying(accountId: string, transferId: string): Promise<ContestationJson> {
  const key = crypto.randomUUID();
  for (let attempt = 1; attempt <= 30; attempt++) {
    const response = await contest(accountId, transferId, undefined, key).catch(() => null);
    if (response?.status === 201) return response.json<ContestationJson>();
    await response?.body?.cancel();
    await tally({ "contestation.client_retries": 1 });
    await sleep(200);
  }
  throw new Error(`contesting ${transferId} never answered 201`);
}

/** Until every contestation is decided and its refund is in; the sweeper stands in for its minute. */
async function drainContestations(db: Pool, accountIds: Map<string, string>, timeoutMs: number): Promise<ContestationJson[]> {
  const giveUpAtMs = Date.now() + timeoutMs;
  for (;;) {
    const now = await Promise.all([...accountIds].map(([id, accountId]) => getContestation(accountId, id)));
    const waiting = now.filter((c) => c.decided_at === null || (c.state !== "rejected" && c.returned_cents === 0));
    if (waiting.length === 0) return now;
    if (Date.now() > giveUpAtMs) throw new Error(`contestations stuck: ${waiting.map((c) => `${c.id}:${c.state}`).join(", ")}`);
    // Stand in for the sweeper's minute: anything overdue by 3 s is backdated and swept.
    const { rowCount } = await db.query(
      "UPDATE contestations SET next_check_at = now() - interval '2 minutes' WHERE id::text = ANY($1) AND next_check_at < now() - interval '3 seconds'",
      [waiting.map((c) => c.id)],
    );
    if ((rowCount ?? 0) > 0) {
      await (await opsCall("/ops/sweep", { method: "POST" })).body?.cancel();
      await tally({ "contestation.sweeper_rescues": rowCount ?? 0 });
    }
    await sleep(250);
  }
}

describe("contestations under faults", () => {
  it(
    "end as the provider decides, each refund credited once, under database faults, a provider outage and object evictions",
    async () => {
      const transfers: { accountId: string; transferId: string; kind: (typeof kinds)[number] }[] = [];
      for (const kind of kinds) {
        for (let n = 0; n < perKind; n++) {
          const accountId = await fundedAccount(amountCents);
          const final = await finishedTransfer(accountId, { amount_cents: amountCents, pix_key: kind.key(), pix_key_type: "email" });
          expect(final.state).toBe("completed");
          transfers.push({ accountId, transferId: final.id, kind });
        }
      }
      const accountIds = transfers.map((t) => t.accountId);
      const entriesBefore = await takeEntriesSnapshot(pool, accountIds);

      await injectDbFault({ kind: "latency", durationMs: 4_000, latencyMs: 40 });
      await providerOutage(1_500);
      const contesting = transfers.map((t) => contestRetrying(t.accountId, t.transferId));
      await sleep(300);
      await injectDbFault({ kind: "reset", durationMs: 600 });
      for (const [i, t] of transfers.entries()) {
        if (i % 3 === 0) await evictSaga(t.transferId);
        if (i % 3 === 1) await fireAlarmTwice(t.transferId).catch(() => undefined);
      }
      const contested = await Promise.all(contesting);
      await tally({ contestations: contested.length });

      const owners = new Map(contested.map((c, i) => [c.id, transfers[i]?.accountId ?? ""]));
      const final = await drainContestations(pool, owners, scaled(60_000, 180_000));
      for (const [i, c] of final.entries()) {
        const expected = transfers[i]?.kind;
        expect([c.state, c.returned_cents], c.id).toEqual([expected?.state, expected?.backCents]);
        await tally({ [`contestation.outcome.${c.state}`]: 1 });
      }
      // One contestation per transfer, whatever the retries.
      const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM contestations WHERE account_id = ANY($1)", [
        accountIds,
      ]);
      expect(rows[0]?.n).toBe(transfers.length);
      await expectInvariants(pool, { accountIds, entriesBefore, overdueMsMax: 0 }, "after contestations under faults");
    },
    scaled(120_000, 400_000),
  );
});
