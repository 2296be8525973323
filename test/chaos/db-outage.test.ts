// The database goes away with sagas in flight: first as a blackhole (connections accepted,
// nothing answered, then everything delivered late), then as resets (every connection cut,
// new ones refused). An outage is a fault, never an outcome: no saga is compensated because
// of it, and all of them drain once it ends. The time to drain is measured from its end. (A
// send that times out in the recovery burst and never reaches the provider is released as
// not_sent, as it must be; the test checks the provider never had it.)
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { fundedAccount, sandboxPayment } from "../support/api.ts";
import { appConnections, injectDbFault, sandboxKeys, tally } from "../support/faults.ts";
import { takeEntriesSnapshot } from "../support/invariants.ts";
import { expectInvariants } from "./support/checks.ts";
import { createWithRetries, retryDelayMsMax } from "./support/clients.ts";
import { drain, tallyOutcomes } from "./support/drain.ts";
import { resolveReviews } from "./support/operator.ts";
import { faultedFilePool } from "./support/pool.ts";
import { scaled } from "./support/scale.ts";

const pool = faultedFilePool(4);

const sagasInFlight = scaled(20, 200);
const outageMs = scaled(2_000, 30_000);
const createdDuringOutage = scaled(3, 10);
const amountCents = 1_000;
/** Velocity allows 30 transfers per account in 10 minutes. */
const transfersPerAccount = 20;
const payingKeys = [sandboxKeys.happy, sandboxKeys.silent, sandboxKeys.flakyStatus, sandboxKeys.timeoutSent];

async function outageScenario(kind: "blackhole" | "reset"): Promise<void> {
  const total = sagasInFlight + createdDuringOutage;
  const inFlightAccounts = Math.ceil(sagasInFlight / transfersPerAccount);
  // A client retrying through the outage makes many attempts: each gets its own account so the
  // per-account rate limit (60 a minute) does not turn its retries into 429s.
  const accountIds = await Promise.all(
    Array.from({ length: inFlightAccounts + createdDuringOutage }, () => fundedAccount(transfersPerAccount * amountCents)),
  );
  const entriesBefore = await takeEntriesSnapshot(pool, accountIds);
  const body = (i: number) => ({ amount_cents: amountCents, ...(payingKeys[i % payingKeys.length] ?? sandboxKeys.happy) });
  const owner = (i: number) =>
    (i < sagasInFlight ? accountIds[Math.floor(i / transfersPerAccount)] : accountIds[inFlightAccounts + i - sagasInFlight]) ?? "";

  const before = await Promise.all(Array.from({ length: sagasInFlight }, (_, i) => createWithRetries(owner(i), body(i))));
  expect(before.map((c) => c.status)).toEqual(Array(sagasInFlight).fill(202));

  // Every application connection (sagas, API, sweeper) loses the database; the checker's does not.
  await injectDbFault(
    kind === "blackhole"
      ? { kind: "blackhole", durationMs: outageMs, applicationNames: appConnections }
      : { kind: "reset", durationMs: outageMs, applicationNames: appConnections },
  );
  const outageEndsAtMs = Date.now() + outageMs;
  await tally({ [`fault.db_outage_${kind}`]: 1 });
  // Clients keep coming during the outage; a patient one retries with the same key until it ends.
  const during = Promise.all(
    Array.from({ length: createdDuringOutage }, (_, i) =>
      createWithRetries(owner(sagasInFlight + i), body(sagasInFlight + i), crypto.randomUUID(), 10 + Math.ceil(outageMs / retryDelayMsMax)),
    ),
  );
  while (Date.now() < outageEndsAtMs) await sleep(100);
  const created = [...before, ...(await during)];
  expect(created.map((c) => c.status)).toEqual(Array(total).fill(202));
  const ids = created.map((c) => c.transfer?.id ?? "");

  // Recovery on the sagas' own fault backoff; the sweeper stands in only past its real minute.
  const drained = await drain(pool, ids, { timeoutMs: scaled(60_000, 180_000), rescueAfterMs: 70_000, label: `db_outage_${kind}` });
  expect(drained.stuck).toEqual([]);
  await tallyOutcomes(pool, ids);
  // The money first: nothing the provider paid was released, nothing unpaid settled (I7 both ways).
  await expectInvariants(pool, { accountIds, entriesBefore, overdueMsMax: 0 }, `after a ${kind} outage`);
  // The outage decides nothing. The only release allowed is a send the provider never received:
  // one that timed out (PROVIDER_TIMEOUT_MS is 400 ms here) in the burst when the database came back.
  const released = await pool.query<{ id: string; failure_reason: string | null; send: string | null }>(
    `SELECT id::text, failure_reason, (SELECT outcome FROM provider_calls p WHERE p.transfer_id = t.id AND kind = 'send' ORDER BY id LIMIT 1) AS send
       FROM transfers t WHERE id::text = ANY($1) AND state = 'compensated'`,
    [ids],
  );
  for (const r of released.rows) {
    expect(r, "released only when the send itself was unknown").toMatchObject({
      failure_reason: "not_sent",
      send: expect.stringMatching(/^unknown:/),
    });
    expect(await sandboxPayment(r.id), `${r.id} released: the provider must never have had it`).toBeNull();
  }
  await tally({ [`released_unsent.db_outage_${kind}`]: released.rows.length });
  // A saga whose send the outage kept from happening past its deadline waits in review, and the
  // careful operator releases it (the provider never had it). So each transfer's end follows
  // from its own story, not from a count that assumes every review was paid: completed exactly
  // when the provider made the payment, else released as not_sent.
  const resolutions = await resolveReviews(pool, ids);
  await tally({ [`released_from_review.db_outage_${kind}`]: [...resolutions.values()].filter((r) => r === "not_sent").length });
  const { rows } = await pool.query<{ id: string; state: string; failure_reason: string | null }>(
    "SELECT id::text, state, failure_reason FROM transfers WHERE id::text = ANY($1)",
    [ids],
  );
  expect(rows).toHaveLength(total);
  for (const row of rows) {
    const made = (await sandboxPayment(row.id))?.made === true;
    const expected = made ? { state: "completed", failure_reason: null } : { state: "compensated", failure_reason: "not_sent" };
    expect(row, `${row.id}: the provider ${made ? "made" : "never made"} it`).toMatchObject(expected);
  }
  await tally({ runs: 1 });
  await expectInvariants(pool, { accountIds, entriesBefore, overdueMsMax: 0 }, `after a ${kind} outage, reviews resolved`);
}

describe(`a ${outageMs / 1000} s database outage with ${sagasInFlight} sagas in flight`, () => {
  it("as a blackhole: steps wait it out, nothing paid is released, all drain", () => outageScenario("blackhole"), scaled(90_000, 400_000));
  it("as resets: steps fail and back off, nothing paid is released, all drain", () => outageScenario("reset"), scaled(90_000, 400_000));
});
