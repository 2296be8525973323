// A hot account: credits (new keys and repeated ones) and transfers (paid, rejected, refused)
// all at once on one account row. Credits land once per key, holds never overspend, and the
// final balance is exactly what was credited minus what was paid.
import { describe, expect, it } from "vitest";
import { fundedAccount, opsCall } from "../support/api.ts";
import { sandboxKeys, tally } from "../support/faults.ts";
import { takeEntriesSnapshot } from "../support/invariants.ts";
import { filePool } from "../support/pool-test.ts";
import { serverErrorCounters } from "./support/answers.ts";
import { expectInvariants } from "./support/checks.ts";
import { createWithRetries } from "./support/clients.ts";
import { drain, tallyOutcomes } from "./support/drain.ts";
import { startWithRetries } from "./support/open.ts";
import { resolveReviews } from "./support/operator.ts";
import { scaled } from "./support/scale.ts";

const pool = filePool(4);

const creditCents = 700;
const amountCents = 1_000;
/** Through the API the velocity rule stops an account at 30 transfers in 10 minutes. */
const apiTransfers = scaled(20, 30);
/** The rest go through the saga object with the velocity rule raised: the same SQL, hotter. */
const directTransfers = scaled(20, 300);
const credits = scaled(30, 300);

async function credit(accountId: string, key: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const response = await opsCall(`/ops/accounts/${accountId}/credits`, {
      method: "POST",
      body: JSON.stringify({ amount_cents: creditCents, idempotency_key: key }),
    });
    await response.body?.cancel();
    await tally({ operations: 1, ...serverErrorCounters(response) });
    if (response.status < 500 || attempt >= 5) return response.status;
  }
}

describe("a hot account", () => {
  it(
    "keeps one balance right under concurrent credits and transfers",
    async () => {
      const accountId = await fundedAccount(5_000);
      const entriesBefore = await takeEntriesSnapshot(pool, [accountId]);
      // Every third credit repeats an earlier key: it must land once.
      const creditKeys = Array.from({ length: credits }, (_, i) => `hot-${i % 3 === 2 ? i - 1 : i}`);
      const uniqueCredits = new Set(creditKeys).size;
      const keyFor = (i: number) => (i % 5 === 4 ? sandboxKeys.reject : sandboxKeys.happy);
      const [creditStatuses, viaApi, direct] = await Promise.all([
        Promise.all(creditKeys.map((key) => credit(accountId, key))),
        Promise.all(
          Array.from({ length: apiTransfers }, (_, i) => createWithRetries(accountId, { amount_cents: amountCents, ...keyFor(i) })),
        ),
        Promise.all(
          Array.from({ length: directTransfers }, (_, i) =>
            startWithRetries({
              accountId,
              amountCents,
              pixKey: keyFor(i).pix_key,
              pixKeyType: keyFor(i).pix_key_type === "cpf" ? "cpf" : "email",
              rules: { velocity_max_per_10_min: 100_000 },
            }),
          ),
        ),
      ]);
      expect(creditStatuses).toEqual(Array(credits).fill(200));
      // 429: the per-account rate limit (60 a minute) counts every attempt, retries included; a
      // refused request writes nothing.
      for (const c of viaApi) expect([202, 429]).toContain(c.status);
      await tally({ "http.429": viaApi.filter((c) => c.status === 429).length });
      for (const d of direct) expect(["created", "replayed"]).toContain(d.outcome);
      await tally({ operations: directTransfers });
      const ids = [...viaApi.flatMap((c) => (c.transfer ? [c.transfer.id] : [])), ...direct.map((d) => d.id)];
      const { rows: opened } = await pool.query<{ n: string }>("SELECT count(*)::text AS n FROM transfers WHERE account_id = $1", [
        accountId,
      ]);
      expect(opened[0]?.n).toBe(String(ids.length));

      expect((await drain(pool, ids, { timeoutMs: scaled(60_000, 300_000), rescueAfterMs: 5_000, label: "hot_account" })).stuck).toEqual(
        [],
      );
      // Past their deadline under load some wait in review; the operator settles what was paid.
      await tallyOutcomes(pool, ids);
      await resolveReviews(pool, ids);
      const { rows } = await pool.query<{ paid: string; balance: string; held: string }>(
        `SELECT (SELECT coalesce(sum(amount_cents), 0) FROM transfers WHERE account_id = $1 AND state = 'completed')::text AS paid,
                balance_cents::text AS balance, held_cents::text AS held
           FROM accounts WHERE id = $1`,
        [accountId],
      );
      const paidCents = Number(rows[0]?.paid);
      expect(rows[0]).toMatchObject({ balance: String(5_000 + uniqueCredits * creditCents - paidCents), held: "0" });
      await tally({ runs: 1 });
      await expectInvariants(pool, { accountIds: [accountId], entriesBefore, overdueMsMax: 0 }, "on the hot account");
    },
    scaled(60_000, 600_000),
  );
});
