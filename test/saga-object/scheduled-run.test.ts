// A scheduled transfer on its day, with the clock driven: the saga runs it at its slot in the
// early hours of its São Paulo day (rules and hold then, the daytime rules), retries once in the
// evening when too little is available, then ends compensated; and it survives its object's
// loss (the alarm is re-armed from the record, the sweeper finds it overdue).
// The fixed-clock runs call the saga runner (advance) with nowMs at the slot, as the object's
// alarm does with Date.now(); the object-driven ones move the recorded run into the past.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { providerFor } from "../../src/provider/select.ts";
import { saoPauloMidnightMs, scheduledRunAtMs } from "../../src/saga/schedule.ts";
import { transition } from "../../src/saga/transition.ts";
import type { TransferSaga } from "../../src/saga-object.ts";
import { advance, type SagaPorts, viewOf } from "../../src/saga-runtime/advance.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { runScheduledTransfer } from "../../src/transfers/scheduled.ts";
import { loadSaga } from "../../src/transfers/store.ts";
import { fundedAccount, getBalance, getTransfer, opsCall, sandboxPayment, type TransferJson, waitForFinalState } from "../support/api.ts";
import { checkInvariants } from "../support/invariants.ts";
import { bodyOf, scheduleAt } from "../support/limits.ts";
import { filePool } from "../support/pool-test.ts";
import { saoPauloDayFromToday, scheduledBody, scheduleTransfer } from "../support/schedule.ts";

const pool = filePool(3);

/** Every account these tests schedule from: the invariants are checked over all of them at the end. */
const accountsUsed: string[] = [];

const stub = (id: string): DurableObjectStub<TransferSaga> => env.TRANSFER_SAGA.getByName(id);
const alarmOf = (id: string): Promise<number | null> => runInDurableObject(stub(id), (_, state) => state.storage.getAlarm());

function fixedClock(nowMs: number): SagaPorts {
  return { db: pool, provider: providerFor(env), timings: readSagaTimings(env), rules: readRuleSettings(env), nowMs: () => nowMs };
}

async function scheduled(accountId: string, day: string, amountCents = 2_500): Promise<SagaRecord> {
  accountsUsed.push(accountId);
  const response = await scheduleTransfer(accountId, scheduledBody(day, amountCents));
  expect(response.status).toBe(202);
  const saga = await loadSaga(pool, (await response.json<TransferJson>()).id);
  if (saga === null) throw new Error("scheduled transfer not recorded");
  return saga;
}

/** The object's own copy and alarm dropped, as if it were lost: the next call reads the database. */
async function loseObjectState(id: string): Promise<void> {
  await runInDurableObject(stub(id), async (_, state) => {
    await state.storage.deleteAlarm();
    await state.storage.deleteAll();
  });
}

const historyOf = async (accountId: string, id: string) => (await getTransfer(accountId, id)).history.map((h) => [h.state, h.reason]);

describe("the run on the day, with a fixed clock", () => {
  it("arms the object at the early slot of its day, and runs nothing a minute before it", async () => {
    const accountId = await fundedAccount(0);
    const day = saoPauloDayFromToday(3);
    const saga = await scheduled(accountId, day);
    const slotMs = scheduledRunAtMs(day, saga.id, "early");
    expect(saga.nextCheckAtMs).toBe(slotMs);
    expect(await alarmOf(saga.id)).toBe(slotMs);
    const local = saoPauloClock(slotMs);
    expect(local.day).toBe(day);
    expect(local.minuteOfDay).toBeLessThan(6 * 60);

    expect(await advance(fixedClock(slotMs - 60_000), saga, { cause: "poke" })).toMatchObject({
      state: "scheduled",
      shortRuns: 0,
      nextCheckAtMs: slotMs,
    });
  });

  it("with too little available at its slot, waits for the evening (18:00-21:00), then ends compensated insufficient_funds", async () => {
    const accountId = await fundedAccount(1_000);
    const day = saoPauloDayFromToday(1);
    const saga = await scheduled(accountId, day, 2_500);
    const slotMs = scheduledRunAtMs(day, saga.id, "early");

    const morning = await advance(fixedClock(slotMs), saga, { cause: "alarm" });
    const eveningMs = scheduledRunAtMs(day, saga.id, "evening");
    expect(morning).toMatchObject({ state: "scheduled", shortRuns: 1, nextCheckAtMs: eveningMs });
    expect(saoPauloClock(eveningMs)).toMatchObject({ day });
    expect(saoPauloClock(eveningMs).minuteOfDay).toBeGreaterThanOrEqual(18 * 60);
    expect(saoPauloClock(eveningMs).minuteOfDay).toBeLessThan(21 * 60);
    expect(await historyOf(accountId, saga.id)).toEqual([["scheduled", null]]);
    // Nothing held, and no refused hold left behind: the evening run can hold under the same id.
    const { rows: holds } = await pool.query("SELECT status FROM holds WHERE id = $1", [saga.id]);
    expect(holds).toEqual([]);

    expect(await advance(fixedClock(eveningMs - 1), morning, { cause: "alarm" })).toMatchObject({ state: "scheduled", shortRuns: 1 });
    const evening = await advance(fixedClock(eveningMs), morning, { cause: "alarm" });
    expect(evening).toMatchObject({ state: "compensated", nextCheckAtMs: null });
    const final = await getTransfer(accountId, saga.id);
    expect(final).toMatchObject({ state: "compensated", failure_reason: "insufficient_funds", failure_code: null });
    expect(final.history.map((h) => [h.state, h.reason])).toEqual([
      ["scheduled", null],
      ["started", "scheduled_day_reached"],
      ["compensated", "insufficient_funds"],
    ]);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 1_000, held_cents: 0 });
  });

  it("runs the evening retry with the money that arrived since, and pays it", async () => {
    const accountId = await fundedAccount(0);
    const day = saoPauloDayFromToday(1);
    const saga = await scheduled(accountId, day, 2_500);
    const morning = await advance(fixedClock(scheduledRunAtMs(day, saga.id, "early")), saga, { cause: "alarm" });
    expect(morning).toMatchObject({ state: "scheduled", shortRuns: 1 });
    const credited = await opsCall(`/ops/accounts/${accountId}/credits`, {
      method: "POST",
      body: JSON.stringify({ amount_cents: 5_000, idempotency_key: "salary" }),
    });
    expect(credited.status).toBe(200);
    await runTheStepAt(morning, scheduledRunAtMs(day, saga.id, "evening"));
    expect((await waitForFinalState(accountId, saga.id)).state).toBe("completed");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 2_500, held_cents: 0 });
  });

  it("checks the daytime rules at its early-hours run: an amount over the night cap is held and paid", async () => {
    const nightCapCents = readRuleSettings(env).night_per_transfer_cents;
    const accountId = await fundedAccount(nightCapCents * 2);
    const day = saoPauloDayFromToday(1);
    // Asked for at noon today: asked for at night, it would meet the night rules then
    // (test/limits/night-schedules.test.ts).
    accountsUsed.push(accountId);
    const noonToday = new Date(saoPauloMidnightMs(saoPauloDayFromToday(0)) + 12 * 3_600_000).toISOString();
    const saga = await loadSaga(pool, bodyOf(await scheduleAt(accountId, nightCapCents + 1, noonToday, day)).id);
    if (saga === null) throw new Error("scheduled transfer not recorded");
    await runTheStepAt(saga, scheduledRunAtMs(day, saga.id, "early"));
    const final = await waitForFinalState(accountId, saga.id);
    expect(final.state).toBe("completed");
    expect(final.history.map((h) => [h.state, h.reason])).toEqual([
      ["scheduled", null],
      ["started", "scheduled_day_reached"],
      ["funds_reserved", "funds_held"],
      ["submitted", "sent_to_provider"],
      ["completed", "paid"],
    ]);
    expect(await sandboxPayment(saga.id)).toMatchObject({ made: true, send_calls: 1 });
    // Its saga deadline runs from the day it started, not from when it was scheduled.
    const { rows } = await pool.query<{ fresh: boolean }>(
      "SELECT deadline_at > (SELECT at FROM transfer_history WHERE transfer_id = $1 AND to_state = 'started') AS fresh FROM transfers WHERE id = $1",
      [saga.id],
    );
    expect(rows).toEqual([{ fresh: true }]);
  });
});

/**
 * One step of the saga at `nowMs` (the run on the day: rules and hold), exactly as the object
 * decides it; then the transfer's own object carries on in real time from the database's record.
 */
async function runTheStepAt(saga: SagaRecord, nowMs: number): Promise<void> {
  const decided = transition(viewOf(saga), { type: "due" }, nowMs, readSagaTimings(env));
  const command = decided.commands[0];
  if (command?.type !== "run_scheduled") throw new Error(`expected a run, got ${command?.type}`);
  const ran = await runScheduledTransfer(pool, saga.id, nowMs, readRuleSettings(env), command.retryAtMs);
  expect(ran).toMatchObject({ outcome: "applied", saga: { state: "funds_reserved" } });
  await loseObjectState(saga.id);
  expect(await stub(saga.id).ensureArmed()).toEqual({ outcome: "armed" });
}

describe("a scheduled transfer survives the loss of its object", () => {
  it("re-arms the same slot from the record, and a webhook's poke before the day changes nothing", async () => {
    const accountId = await fundedAccount(10_000);
    const day = saoPauloDayFromToday(2);
    const saga = await scheduled(accountId, day);
    await loseObjectState(saga.id);
    expect(await alarmOf(saga.id)).toBeNull();
    expect(await stub(saga.id).ensureArmed()).toEqual({ outcome: "armed" });
    expect(await alarmOf(saga.id)).toBe(scheduledRunAtMs(day, saga.id, "early"));

    expect(await stub(saga.id).poke("webhook")).toEqual({ state: "scheduled" });
    expect(await runDurableObjectAlarm(stub(saga.id))).toBe(true);
    expect((await getTransfer(accountId, saga.id)).state).toBe("scheduled");
    expect(await getBalance(accountId)).toMatchObject({ held_cents: 0 });
    expect(await alarmOf(saga.id)).toBe(scheduledRunAtMs(day, saga.id, "early"));
  });

  it("is found overdue by the sweeper when its day came while it had no alarm, and is paid once", async () => {
    const accountId = await fundedAccount(10_000);
    const saga = await scheduled(accountId, saoPauloDayFromToday(1));
    await loseObjectState(saga.id);
    // Its slot passed with no object awake (a deploy, a lost alarm).
    // Older than anything else overdue in the shared database: the sweeper's batch is the oldest first.
    await pool.query("UPDATE transfers SET next_check_at = now() - interval '10 years' WHERE id = $1", [saga.id]);
    const swept = await opsCall("/ops/sweep", { method: "POST" });
    expect(swept.status).toBe(200);
    expect((await swept.json<{ poked: number }>()).poked).toBeGreaterThanOrEqual(1);
    const final = await waitForFinalState(accountId, saga.id);
    expect(final.state).toBe("completed");
    expect(await sandboxPayment(saga.id)).toMatchObject({ made: true, send_calls: 1 });
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 7_500, held_cents: 0 });
  });
});

describe("the database keeps a scheduled transfer's hops to the table", () => {
  it("refuses scheduled -> completed, scheduled -> funds_reserved and a canceled transfer's way back", async () => {
    const accountId = await fundedAccount(10_000);
    const saga = await scheduled(accountId, saoPauloDayFromToday(1));
    for (const to of ["completed", "funds_reserved", "compensated"]) {
      await expect(
        pool.query("INSERT INTO transfer_history (transfer_id, from_state, to_state, actor) VALUES ($1, 'scheduled', $2, 'saga')", [
          saga.id,
          to,
        ]),
      ).rejects.toThrow(/transfer_history_transition_allowed/);
    }
    await expect(
      pool.query("INSERT INTO transfer_history (transfer_id, from_state, to_state, actor) VALUES ($1, 'canceled', 'started', 'client')", [
        saga.id,
      ]),
    ).rejects.toThrow(/transfer_history_transition_allowed/);
    await expect(
      pool.query("INSERT INTO transfer_history (transfer_id, from_state, to_state, actor) VALUES ($1, NULL, 'canceled', 'saga')", [
        saga.id,
      ]),
    ).rejects.toThrow(/transfer_history_transition_allowed/);
    // A run of a transfer no longer scheduled is answered as it is, changing nothing.
    const { rows } = await pool.query<{ result: { outcome: string } }>("SELECT transfer_cancel($1, NULL) AS result", [saga.id]);
    expect(rows[0]?.result.outcome).toBe("canceled");
    const again = await runScheduledTransfer(pool, saga.id, Date.now(), readRuleSettings(env), null);
    expect(again).toMatchObject({ outcome: "state_mismatch", saga: { state: "canceled" } });
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000, held_cents: 0 });
  });
});

describe("the money stays exact", () => {
  it("keeps every invariant (I1-I12) over the accounts above: scheduled and canceled hold nothing, each hop justified", async () => {
    expect(accountsUsed.length).toBeGreaterThan(5);
    expect(await checkInvariants(pool, { accountIds: accountsUsed })).toEqual([]);
  });
});
