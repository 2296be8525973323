// PROVIDER_SEND_CONCURRENCY=2 (this project's setting) under a storm of 200 transfers: the
// sandbox counts the sends it is answering at once, and never sees more than 2; every transfer
// completes, money exact, one payment each, even with one slot taken by a holder killed mid-send
// (a lease never released, taken back when it expires).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTransfer, fundedAccount, getBalance, sandboxPayment, type TransferJson, waitForFinalState } from "../support/api.ts";

const transfersTotal = 200;
/** Under the per-account velocity limit (30 per 10 minutes) and rate limit. */
const transfersPerAccount = 10;
const amountCents = 1_234;
const startCents = transfersPerAccount * amountCents;

describe("the send gate under a storm", () => {
  it("never has more than PROVIDER_SEND_CONCURRENCY sends in flight, and every transfer completes past a killed holder", {
    timeout: 180_000,
  }, async () => {
    const limit = Number(env.PROVIDER_SEND_CONCURRENCY);
    expect(limit).toBe(2);
    const sandbox = env.SANDBOX.getByName("sandbox");
    await sandbox.sendConcurrency(true);
    // A saga object killed during its provider call: its lease is never released. Shorter than a
    // real send's lease (four provider timeouts) so the storm runs on one slot for seconds only.
    const gate = env.SEND_GATE.getByName("provider");
    const killed = await gate.acquire({ limit, leaseMs: 5_000, waitMsMax: 1_000 });
    expect(killed.outcome).toBe("granted");

    const accounts = await Promise.all(Array.from({ length: transfersTotal / transfersPerAccount }, () => fundedAccount(startCents)));
    const created = await Promise.all(
      accounts.flatMap((accountId) =>
        Array.from({ length: transfersPerAccount }, async () => {
          const response = await createTransfer(accountId, {
            amount_cents: amountCents,
            pix_key: `${crypto.randomUUID()}@example.com`,
            pix_key_type: "email",
          });
          expect(response.status).toBe(202);
          return { accountId, id: (await response.json<TransferJson>()).id };
        }),
      ),
    );
    const finals = await Promise.all(created.map(({ accountId, id }) => waitForFinalState(accountId, id, 150_000)));

    expect(finals.map((t) => t.state)).toEqual(Array(transfersTotal).fill("completed"));
    const { inFlight, inFlightMax } = await sandbox.sendConcurrency();
    expect(inFlight).toBe(0);
    expect(inFlightMax).toBeGreaterThanOrEqual(1);
    expect(inFlightMax).toBeLessThanOrEqual(limit);
    for (const accountId of accounts) {
      expect(await getBalance(accountId)).toMatchObject({ balance_cents: 0, held_cents: 0 });
    }
    const payments = await Promise.all(created.map(({ id }) => sandboxPayment(id)));
    expect(payments.every((p) => p?.made === true && p.send_calls === 1)).toBe(true);
    // The killed holder's lease was taken back, and every send released its own.
    expect(await gate.held()).toBe(0);
  });
});
