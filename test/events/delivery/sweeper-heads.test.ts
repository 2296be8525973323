// The sweeper's event batch holds only what a wake could deliver: each transfer's head event.
// Events waiting behind a retrying or parked head keep their first due time; counted as
// overdue, a hundred of them would fill the batch forever and hide a lost event elsewhere.
import { describe, expect, it } from "vitest";
import { transfersWithOverdueEvents } from "../../../src/events/store.ts";
import { sweepBatchMax, sweepOverdueMs } from "../../../src/sweeper.ts";
import { fundedAccount } from "../../support/api.ts";
import { sandboxKeys } from "../../support/faults.ts";
import { filePool } from "../../support/pool-test.ts";
import { openWithoutObject } from "../../support/saga.ts";

const pool = filePool(3);

/** Transfers waiting for their object; each has two undelivered events (started, funds_reserved). */
async function heldTransfers(count: number): Promise<string[]> {
  const ids: string[] = [];
  // Well under the per-account velocity limit (30 per 10 minutes).
  const perAccount = 20;
  for (let i = 0; i < count; i += perAccount) {
    const accountId = await fundedAccount(100_000);
    for (let j = i; j < Math.min(count, i + perAccount); j += 1) {
      ids.push((await openWithoutObject(pool, accountId, 100, sandboxKeys.happy.pix_key)).id);
    }
  }
  return ids;
}

describe("the sweeper's overdue events", () => {
  it("finds a lost event behind more than a batch of events waiting on retrying or parked heads", async () => {
    const blocked = await heldTransfers(sweepBatchMax + 20);
    const [lost] = await heldTransfers(1);
    if (lost === undefined) throw new Error("no lost transfer");
    const half = blocked.slice(0, blocked.length / 2);
    // Half the heads were parked after three days of failures, half retry in an hour; the
    // events behind them look an hour overdue, older than the lost one.
    await pool.query("UPDATE transfer_events SET parked_at = now(), next_attempt_at = NULL WHERE transfer_id = ANY($1) AND sequence = 1", [
      half,
    ]);
    await pool.query(
      "UPDATE transfer_events SET next_attempt_at = now() + interval '1 hour' WHERE transfer_id = ANY($1) AND sequence = 1",
      [blocked.slice(half.length)],
    );
    await pool.query(
      "UPDATE transfer_events SET next_attempt_at = now() - interval '1 hour' WHERE transfer_id = ANY($1) AND sequence = 2",
      [blocked],
    );
    // The lost one: its object never woke, its head is two minutes overdue.
    await pool.query("UPDATE transfer_events SET next_attempt_at = now() - interval '2 minutes' WHERE transfer_id = $1", [lost]);

    const overdue = await transfersWithOverdueEvents(pool, sweepOverdueMs, sweepBatchMax);
    expect(overdue).toContain(lost);
    expect(overdue.filter((id) => blocked.includes(id))).toEqual([]);
    expect(new Set(overdue).size).toBe(overdue.length);
  });
});
