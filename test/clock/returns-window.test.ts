// A completed transfer's returns watch lasts 7 days of business time (CONTRACT §4 "Test clock"):
// counted from the completion, so the clock moved before it changes nothing, and the clock moved
// after it counts as time that passed. A contestation's refund wait stays on the wall clock.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { returnsWatchMs } from "../../src/saga/returns.ts";
import type { SagaPorts } from "../../src/saga-runtime/advance.ts";
import { sagaPorts } from "../../src/saga-runtime/ports.ts";
import { watchReturns } from "../../src/saga-runtime/returns.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { loadSaga } from "../../src/transfers/store.ts";
import { createTransfer, fundedAccount, type TransferJson, waitForFinalState, waitForReturned } from "../support/api.ts";
import { advanceClock } from "../support/clock.ts";
import { happyKey } from "../support/limits.ts";
import { filePool } from "../support/pool-test.ts";

const pool = filePool(2);
const dayMs = 86_400_000;

async function completed(accountId: string, body: { pix_key: string; pix_key_type: string }): Promise<string> {
  const created = await createTransfer(accountId, { amount_cents: 1_000, ...body });
  expect(created.status).toBe(202);
  const { id } = await created.json<TransferJson>();
  expect(await waitForFinalState(accountId, id)).toMatchObject({ state: "completed" });
  return id;
}

/** A transfer completed just now, as its object loads it, and the ports its object watches it with. */
async function completedSaga(): Promise<{ saga: SagaRecord; ports: SagaPorts }> {
  const id = await completed(await fundedAccount(10_000), happyKey);
  const saga = await loadSaga(pool, id);
  if (saga === null) throw new Error("completed transfer not recorded");
  return { saga, ports: sagaPorts(env, { waitUntil: () => undefined }, pool) };
}

describe("the returns watch on business time", () => {
  it("still applies a return after the clock moved more than 7 days before the completion", async () => {
    await advanceClock(returnsWatchMs + dayMs);
    const accountId = await fundedAccount(10_000);
    const id = await completed(accountId, { pix_key: "returned@sandbox.test", pix_key_type: "email" });
    expect(await waitForReturned(accountId, id, 1_000)).toMatchObject({ returned_cents: 1_000 });
  });

  it("asks the provider for returns within 7 days of business time after the completion, and not after", async () => {
    const { saga, ports } = await completedSaga();

    await advanceClock(returnsWatchMs - dayMs);
    expect(await watchReturns(ports, saga)).toMatchObject({ checked: true });
    await advanceClock(dayMs);
    expect(await watchReturns(ports, saga)).toEqual({ checked: false });
  });

  it("keeps a contestation's refund wait on the wall clock, past the 7 days of business time", async () => {
    const { saga, ports } = await completedSaga();

    await advanceClock(returnsWatchMs + dayMs);
    expect(await watchReturns(ports, saga)).toEqual({ checked: false });
    expect(await watchReturns(ports, saga, Date.now() + 60_000)).toMatchObject({ checked: true });
  });
});
