// Scheduled transfers through the public API (CONTRACT §2): scheduling holds nothing and checks
// no rule, a scheduled transfer can be canceled (then never again), nothing else can, and a
// date that is not after today or more than a year ahead is refused writing nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { opsTransferListSchema } from "../../src/contract/ops-schemas.ts";
import { transferSchema } from "../../src/contract/schemas.ts";
import { scheduledRunAtMs } from "../../src/saga/schedule.ts";
import { createTransfer, fundedAccount, getBalance, getTransfer, opsCall, type TransferJson, waitForFinalState } from "../support/api.ts";
import { eventChecks } from "../support/event-invariants.ts";
import { putLimits } from "../support/limits.ts";
import { filePool } from "../support/pool-test.ts";
import { cancel, saoPauloDayFromToday, scheduledBody, scheduleTransfer } from "../support/schedule.ts";
import { expectJson, expectProblem, expectValidationProblem, footprint, validTransfer } from "./helpers.ts";

const pool = filePool(2);

let tomorrow: string;
beforeAll(() => {
  tomorrow = saoPauloDayFromToday(1);
});

describe("scheduling a transfer", () => {
  it("answers 202 scheduled with nothing held, the balance untouched and its first run in the early hours of the day", async () => {
    const accountId = await fundedAccount(10_000);
    const response = await scheduleTransfer(accountId, scheduledBody(tomorrow));
    const transfer = await expectJson(response, 202, transferSchema);
    expect(transfer).toMatchObject({ state: "scheduled", scheduled_for: tomorrow, failure_reason: null, end_to_end_id: null });
    expect(transfer.history).toEqual([{ state: "scheduled", at: expect.any(String), reason: null }]);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000, held_cents: 0, available_cents: 10_000 });
    expect(await footprint(pool, accountId)).toMatchObject({ transfers: 1, holds: 0, ledgerTransactions: 1 });
    const { rows } = await pool.query<{ next_check_ms: string; limit_day: string | null }>(
      "SELECT epoch_ms(next_check_at) AS next_check_ms, limit_day FROM transfers WHERE id = $1",
      [transfer.id],
    );
    expect(rows).toEqual([{ next_check_ms: String(scheduledRunAtMs(tomorrow, transfer.id, "early")), limit_day: null }]);
    const listed = await opsCall(`/ops/transfers?state=scheduled&account_id=${accountId}`);
    const page = await expectJson(listed, 200, opsTransferListSchema);
    expect(page.data.map((t) => [t.id, t.state, t.scheduled_for])).toEqual([[transfer.id, "scheduled", tomorrow]]);
  });

  it("checks no daytime rule until the day: an amount above the account's per-transfer and daily limits is scheduled too", async () => {
    const accountId = await fundedAccount(0);
    // Decreases are in force at once. The amount stays within the night rules, which a schedule
    // asked for at night meets when asked for (test/limits/night-schedules.test.ts).
    expect((await putLimits(accountId, { per_transfer_cents: 1_000, daily_cents: 1_000 })).status).toBe(200);
    const transfer = await expectJson(await scheduleTransfer(accountId, scheduledBody(tomorrow, 2_000)), 202, transferSchema);
    expect(transfer).toMatchObject({ state: "scheduled", failure_reason: null, failure_code: null });
  });

  it("shows scheduled_for as null on a transfer sent at once", async () => {
    const accountId = await fundedAccount(10_000);
    const created = await expectJson(await createTransfer(accountId, validTransfer), 202, transferSchema);
    expect(created.scheduled_for).toBeNull();
  });

  it("replays the same request, and refuses the same key with another date (422)", async () => {
    const accountId = await fundedAccount(10_000);
    const key = crypto.randomUUID();
    const first = await scheduleTransfer(accountId, scheduledBody(tomorrow), key);
    const firstBody = await first.text();
    const replay = await scheduleTransfer(accountId, scheduledBody(tomorrow), key);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await replay.text()).toBe(firstBody);
    await expectProblem(await scheduleTransfer(accountId, scheduledBody(saoPauloDayFromToday(2)), key), 422, "idempotency-key-reused");
    // The same key for a transfer sent at once is another request too.
    await expectProblem(await createTransfer(accountId, validTransfer, key), 422, "idempotency-key-reused");
  });

  it.each([
    ["yesterday", () => saoPauloDayFromToday(-1)],
    ["today", () => saoPauloDayFromToday(0)],
    ["366 days ahead", () => saoPauloDayFromToday(366)],
    ["a day that does not exist", () => "2027-02-30"],
    ["a day in another format", () => "01/12/2027"],
    ["a time", () => `${saoPauloDayFromToday(1)}T03:00:00Z`],
  ])("refuses %s with 400, writing nothing", async (_label, day) => {
    const accountId = await fundedAccount(10_000);
    const before = await footprint(pool, accountId);
    await expectValidationProblem(await scheduleTransfer(accountId, scheduledBody(day())), "scheduled_for");
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it("takes a day 365 days ahead", async () => {
    const accountId = await fundedAccount(0);
    const day = saoPauloDayFromToday(365);
    expect(await expectJson(await scheduleTransfer(accountId, scheduledBody(day)), 202, transferSchema)).toMatchObject({
      state: "scheduled",
      scheduled_for: day,
    });
  });
});

describe("canceling a scheduled transfer", () => {
  it("ends it canceled (200, the resource), then refuses a second cancel with 409", async () => {
    const accountId = await fundedAccount(10_000);
    const { id } = await (await scheduleTransfer(accountId, scheduledBody(tomorrow))).json<TransferJson>();
    const canceled = await expectJson(await cancel(accountId, id), 200, transferSchema);
    expect(canceled).toMatchObject({ id, state: "canceled", scheduled_for: tomorrow, failure_reason: null });
    expect(canceled.history.map((h) => [h.state, h.reason])).toEqual([
      ["scheduled", null],
      ["canceled", "canceled"],
    ]);
    expect(await getTransfer(accountId, id)).toEqual(canceled);
    await expectProblem(await cancel(accountId, id), 409, "conflict");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000, held_cents: 0 });
    expect(await footprint(pool, accountId)).toMatchObject({ holds: 0, ledgerTransactions: 1 });
  });

  it("announces each hop as an event, in order (the outbox)", async () => {
    const accountId = await fundedAccount(10_000);
    const { id } = await (await scheduleTransfer(accountId, scheduledBody(tomorrow))).json<TransferJson>();
    await expectJson(await cancel(accountId, id), 200, transferSchema);
    const { rows } = await pool.query<{ sequence: number; state: string; scheduled_for: string }>(
      "SELECT sequence, data->>'state' AS state, data->>'scheduled_for' AS scheduled_for FROM transfer_events WHERE transfer_id = $1 ORDER BY sequence",
      [id],
    );
    expect(rows).toEqual([
      { sequence: 1, state: "scheduled", scheduled_for: tomorrow },
      { sequence: 2, state: "canceled", scheduled_for: tomorrow },
    ]);
    const client = await pool.connect();
    try {
      expect(await eventChecks(client, [accountId])).toEqual([]);
    } finally {
      client.release();
    }
  });

  it("refuses to cancel a transfer that is not scheduled (409) and changes nothing", async () => {
    const accountId = await fundedAccount(10_000);
    const { id } = await (await createTransfer(accountId, validTransfer)).json<TransferJson>();
    const completed = await waitForFinalState(accountId, id);
    expect(completed.state).toBe("completed");
    const refused = await expectProblem(await cancel(accountId, id), 409, "conflict");
    expect(refused.detail).toContain("completed");
    expect((await getTransfer(accountId, id)).history).toEqual(completed.history);
  });

  it("answers 404 for another account's transfer and for no transfer, canceling nothing", async () => {
    const owner = await fundedAccount(10_000);
    const other = await fundedAccount(10_000);
    const { id } = await (await scheduleTransfer(owner, scheduledBody(tomorrow))).json<TransferJson>();
    await expectProblem(await cancel(other, id), 404, "not-found");
    await expectProblem(await cancel(owner, crypto.randomUUID()), 404, "not-found");
    await expectProblem(await cancel(owner, "not-a-transfer"), 404, "not-found");
    expect((await getTransfer(owner, id)).state).toBe("scheduled");
  });
});
