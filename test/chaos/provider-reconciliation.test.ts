// Provider reconciliation after chaos (issue 16's invariant): every sandbox behaviour, a late
// confirmation and returns, under database latency and a provider outage; once the sagas are
// drained, the careful operator has worked the review queue and the faults are over, a run over
// the window reports only what the sandbox scripts: each late-confirm@ Pix we released is
// `paid_after_release`, each processing@ one the operator released is `state_mismatch` (the
// sandbox holds it processing forever), nothing else diverges, and every return is credited once.
import { afterEach, describe, expect } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { reconcile } from "../reconciliation/scenarios.ts";
import { fundedAccount, sandboxPayment } from "../support/api.ts";
import { clearDbFaults, injectDbFault, sandboxKeys, tally } from "../support/faults.ts";
import { takeEntriesSnapshot } from "../support/invariants.ts";
import { poolTest } from "../support/pool-test.ts";
import { expectInvariants } from "./support/checks.ts";
import { createDuringOutage } from "./support/clients.ts";
import { drain } from "./support/drain.ts";
import { resolveReviews } from "./support/operator.ts";
import { scaled } from "./support/scale.ts";

const it = poolTest(4);
afterEach(async () => {
  await clearDbFaults();
});

const amountCents = 1_300;
const perKey = scaled(1, 5);
const keys = [
  ...Object.values(sandboxKeys),
  { pix_key: "late-confirm@sandbox.test", pix_key_type: "email" },
  { pix_key: "returned@sandbox.test", pix_key_type: "email" },
  { pix_key: "partial-return@sandbox.test", pix_key_type: "email" },
] as const;

describe("provider reconciliation after chaos", () => {
  it(
    "reports only the scripted divergences, and credits every return once",
    async ({ pool }) => {
      const startedAtMs = Date.now() - 1_000;
      const accountIds = await Promise.all(keys.map(() => fundedAccount(perKey * amountCents)));
      const entriesBefore = await takeEntriesSnapshot(pool, accountIds);
      await injectDbFault({ kind: "latency", durationMs: 2_000, latencyMs: 30 });
      const senders = keys.map((key, k) => ({
        label: key.pix_key,
        accountId: accountIds[k] ?? "",
        body: { amount_cents: amountCents, ...key },
      }));
      const { sent, ids } = await createDuringOutage(senders, perKey, 500);
      expect((await drain(pool, ids, { timeoutMs: 60_000, rescueAfterMs: 3_000, label: "reconciliation_chaos" })).stuck).toEqual([]);
      await resolveReviews(pool, ids);
      await clearDbFaults();

      // Scripted: a late-confirm@ Pix the saga released, which the sandbox then made; and a
      // processing@ one the careful operator released while the sandbox holds it processing.
      const scripted: Record<string, "paid_after_release" | "state_mismatch"> = {
        "late-confirm@sandbox.test": "paid_after_release",
        "processing@sandbox.test": "state_mismatch",
      };
      const expected: [string, string][] = [];
      for (const { label: key, created: c } of sent) {
        const id = c.transfer?.id ?? "";
        const kind = scripted[key];
        if (kind === undefined) continue;
        const { rows } = await pool.query<{ state: string }>("SELECT state FROM transfers WHERE id = $1", [id]);
        if (rows[0]?.state === "compensated" && (await sandboxPayment(id)) !== null) expected.push([id, kind]);
      }
      // A late Pix leaves once its saga gave up; a return comes one confirmation delay after the one before.
      await sleep(1_000);
      const run = await reconcile(startedAtMs);
      const ours = run.divergences.filter((d) => ids.includes(d.transfer_id));
      const expectedIds = expected.map(([id]) => id);
      expect(ours.filter((d) => !expectedIds.includes(d.transfer_id))).toEqual([]);
      expect(ours.map((d) => [d.transfer_id, d.kind]).sort()).toEqual(expected.sort());

      // Every completed returned@ / partial-return@ transfer got its whole amount back, once (I12).
      const { rows: returned } = await pool.query<{ id: string; returned_cents: string }>(
        "SELECT id::text, returned_cents::text FROM transfers WHERE id::text = ANY($1) AND state = 'completed' AND pix_key IN ('returned@sandbox.test', 'partial-return@sandbox.test')",
        [ids],
      );
      for (const row of returned) expect(Number(row.returned_cents), row.id).toBe(amountCents);
      await tally({ runs: 1, "reconciliation.scripted_divergences": expected.length, "reconciliation.returned": returned.length });
      await expectInvariants(pool, { accountIds, entriesBefore, overdueMsMax: 0 }, "after reconciling the chaos");
    },
    scaled(90_000, 300_000),
  );
});
