// Many concurrent requests with one Idempotency-Key (a client retrying in a loop, a proxy
// replaying): one transfer, one hold, one payment. The same body gets the first answer byte for
// byte; another body under the key gets 422; beyond the per-account rate limit, 429; a fault
// (503 with Retry-After, the only 5xx allowed) is retried with the same key, as the contract asks of clients.
import { describe, expect, it } from "vitest";
import { fundedAccount, sandboxPayment } from "../support/api.ts";
import { sandboxKeys, tally } from "../support/faults.ts";
import { filePool } from "../support/pool-test.ts";
import { expectInvariants } from "./support/checks.ts";
import { createWithRetries } from "./support/clients.ts";
import { drain, tallyOutcomes } from "./support/drain.ts";
import { scaled } from "./support/scale.ts";

const pool = filePool(3);

const requests = scaled(40, 100);
const body = { amount_cents: 2_500, ...sandboxKeys.happy };
/** Every tenth request changes the amount under the same key. */
const otherBodyEvery = 10;

describe("one Idempotency-Key, many concurrent requests", () => {
  it(`creates one transfer out of ${requests} concurrent requests`, async () => {
    const accountId = await fundedAccount(100_000);
    const key = crypto.randomUUID();
    // Each request is a client as the contract wants it: a 503 (a fault: the object reset, the
    // database slow beside other work) is retried with the same key until it has an answer.
    const answers = await Promise.all(
      Array.from({ length: requests }, async (_, i) => {
        const sent = i % otherBodyEvery === otherBodyEvery - 1 ? { ...body, amount_cents: body.amount_cents + 1 } : body;
        const outcome = await createWithRetries(accountId, sent, key);
        return {
          amountCents: sent.amount_cents,
          status: outcome.status,
          replayed: outcome.replayed,
          text: JSON.stringify(outcome.transfer),
          notRetryableServerErrors: outcome.notRetryableServerErrors,
        };
      }),
    );
    await tally({ "http.429": answers.filter((a) => a.status === 429).length });
    // The faults met on the way were 503 with Retry-After (createWithRetries tallied every 5xx).
    expect(
      answers.reduce((sum, a) => sum + a.notRetryableServerErrors, 0),
      "5xx answers other than 503 with Retry-After",
    ).toBe(0);
    const accepted = answers.filter((a) => a.status === 202);
    const created = accepted.filter((a) => !a.replayed);
    expect(created).toHaveLength(1);
    // Whichever body reached the database first owns the key (usually the common one, not
    // always): the same body replays it, the other is refused. 429: the per-account rate limit
    // (60 a minute) counts every attempt, replays included.
    const winnerCents = created[0]?.amountCents;
    for (const a of answers) expect(a.amountCents === winnerCents ? [202, 409, 429] : [409, 422, 429]).toContain(a.status);
    // Every replay is the first answer (byte for byte is test/api/idempotency.test.ts's to prove).
    expect(new Set(accepted.map((a) => a.text)).size).toBe(1);
    const transfer = JSON.parse(accepted[0]?.text ?? "{}") as { id: string };

    const { rows } = await pool.query<{ id: string }>("SELECT id::text FROM transfers WHERE account_id = $1", [accountId]);
    expect(rows.map((r) => r.id)).toEqual([transfer.id]);
    expect((await drain(pool, [transfer.id], { timeoutMs: 20_000, rescueAfterMs: 2_000, label: "idempotency_storm" })).stuck).toEqual([]);
    expect(await sandboxPayment(transfer.id)).toMatchObject({ made: true, send_calls: 1 });
    await tallyOutcomes(pool, [transfer.id]);
    await tally({ runs: 1 });
    await expectInvariants(pool, { accountIds: [accountId], overdueMsMax: 0 }, "after the key storm");
  });
});
