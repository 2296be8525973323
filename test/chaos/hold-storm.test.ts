// A hold storm: many transfers at once through the API, spread over accounts funded for only
// part of them. Each account holds exactly what its balance covers, whatever the order; every
// held transfer is paid once, and the rest are refused before reaching the provider.
import { describe, expect, it } from "vitest";
import { fundedAccount } from "../support/api.ts";
import { sandboxKeys, tally } from "../support/faults.ts";
import { takeEntriesSnapshot } from "../support/invariants.ts";
import { filePool } from "../support/pool-test.ts";
import { expectInvariants } from "./support/checks.ts";
import { createWithRetries } from "./support/clients.ts";
import { drain, tallyOutcomes } from "./support/drain.ts";
import { resolveReviews } from "./support/operator.ts";
import { scaled } from "./support/scale.ts";

const pool = filePool(4);

const transfers = scaled(100, 1_000);
const accounts = scaled(10, 50);
const amountCents = 1_000;
/** Each account covers this share of its transfers; the rest must be refused. */
const coveredShare = 0.8;

describe("a hold storm", () => {
  it(
    `holds exactly what each balance covers across ${transfers} concurrent transfers and ${accounts} accounts`,
    async () => {
      const perAccount = transfers / accounts;
      const coveredPerAccount = Math.floor(perAccount * coveredShare);
      // Half a transfer more than the covered ones: the next hold must fail by a margin.
      const accountIds = await Promise.all(
        Array.from({ length: accounts }, () => fundedAccount(coveredPerAccount * amountCents + amountCents / 2)),
      );
      const entriesBefore = await takeEntriesSnapshot(pool, accountIds);

      const startedAtMs = Date.now();
      const created = await Promise.all(
        accountIds.flatMap((accountId) =>
          Array.from({ length: perAccount }, () => createWithRetries(accountId, { amount_cents: amountCents, ...sandboxKeys.happy })),
        ),
      );
      await tally({ "storm.create_ms": Date.now() - startedAtMs });
      expect(created.map((c) => c.status)).toEqual(Array(transfers).fill(202));
      const ids = created.map((c) => c.transfer?.id ?? "");

      const drained = await drain(pool, ids, { timeoutMs: scaled(60_000, 300_000), rescueAfterMs: 10_000, label: "hold_storm" });
      expect(drained.stuck).toEqual([]);
      // What the saga decided on its own: an overloaded provider means unknown answers, so some
      // wait in review, and a send the provider never got is released as not_sent.
      await tallyOutcomes(pool, ids);
      await expectInvariants(pool, { accountIds, entriesBefore, overdueMsMax: 0 }, "after the storm drained");
      await resolveReviews(pool, ids);
      const { rows } = await pool.query<{ account_id: string; completed: string; not_sent: string; refused: string; other: string }>(
        `SELECT account_id,
                count(*) FILTER (WHERE state = 'completed')::text AS completed,
                count(*) FILTER (WHERE failure_reason = 'not_sent')::text AS not_sent,
                count(*) FILTER (WHERE failure_reason = 'insufficient_funds')::text AS refused,
                count(*) FILTER (WHERE state <> 'completed' AND failure_reason IS DISTINCT FROM 'insufficient_funds'
                                   AND failure_reason IS DISTINCT FROM 'not_sent')::text AS other
           FROM transfers WHERE account_id = ANY($1) GROUP BY account_id`,
        [accountIds],
      );
      expect(rows).toHaveLength(accounts);
      for (const row of rows) {
        const subject = `account ${row.account_id}`;
        expect(row.other, subject).toBe("0");
        // Never more paid than the balance covered, whatever the order.
        expect(Number(row.completed), subject).toBeLessThanOrEqual(coveredPerAccount);
        // With nothing released, exactly the covered ones were held; a release (a send the
        // provider never got) frees funds for one more hold.
        if (row.not_sent === "0")
          expect(row, subject).toMatchObject({ completed: String(coveredPerAccount), refused: String(perAccount - coveredPerAccount) });
        else expect(Number(row.completed) + Number(row.not_sent) + Number(row.refused), subject).toBe(perAccount);
      }
      await tally({ runs: 1 });
      await expectInvariants(pool, { accountIds, entriesBefore, overdueMsMax: 0 }, "after the storm");
    },
    scaled(120_000, 900_000),
  );
});
