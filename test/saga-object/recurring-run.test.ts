// A recurring transfer's occurrences on their days, with the clock driven as in
// scheduled-run.test.ts: each occurrence runs at its early slot like any scheduled transfer and
// opens the next one in the same transaction; too little available ends it compensated and
// opens one retry transfer for 18:00-20:00 the same day, whose failure is final; monthly dates
// keep the first date's day; canceling skips an occurrence or ends the recurrence.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { recurringTransferSchema, transferSchema } from "../../src/contract/schemas.ts";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { occurrenceDate } from "../../src/saga/recurrence.ts";
import { scheduledRunAtMs } from "../../src/saga/schedule.ts";
import type { TransferSaga } from "../../src/saga-object.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { runScheduledTransfer } from "../../src/transfers/scheduled.ts";
import { loadSaga } from "../../src/transfers/store.ts";
import { expectJson } from "../api/helpers.ts";
import { creditAccount, fundedAccount, getTransfer, waitForFinalState } from "../support/api.ts";
import { checkInvariants } from "../support/invariants.ts";
import { filePool } from "../support/pool-test.ts";
import { cancelRecurring, createRecurring, getRecurring, recurringBody, runAtSlot } from "../support/recurring.ts";
import { cancel, saoPauloDayFromToday } from "../support/schedule.ts";

const pool = filePool(3);
const accountsUsed: string[] = [];

const stub = (id: string): DurableObjectStub<TransferSaga> => env.TRANSFER_SAGA.getByName(id);
const alarmOf = (id: string): Promise<number | null> => runInDurableObject(stub(id), (_, state) => state.storage.getAlarm());

async function recurrenceOf(accountId: string, id: string) {
  return expectJson(await getRecurring(accountId, id), 200, recurringTransferSchema);
}

async function sagaOf(id: string): Promise<SagaRecord> {
  const saga = await loadSaga(pool, id);
  if (saga === null) throw new Error(`no transfer ${id}`);
  return saga;
}

async function created(accountId: string, overrides: Record<string, unknown>) {
  accountsUsed.push(accountId);
  return expectJson(await createRecurring(accountId, recurringBody(overrides)), 201, recurringTransferSchema);
}

/** The first São Paulo date after tomorrow on the 31st whose next month is shorter. */
function nextThirtyFirstBeforeAShortMonth(): string {
  for (let days = 2; days <= 365; days++) {
    const day = saoPauloDayFromToday(days);
    if (day.endsWith("-31") && !occurrenceDate(day, "monthly", 2).endsWith("-31")) return day;
  }
  throw new Error("no 31st within a year");
}

describe("an occurrence on its day", () => {
  it("runs at its early slot, pays, and opens the next occurrence scheduled on the next date", async () => {
    const accountId = await fundedAccount(10_000);
    const first = saoPauloDayFromToday(1);
    const recurrence = await created(accountId, { first_date: first, frequency: "weekly", count: 3 });
    const firstId = recurrence.occurrences[0]?.transfer_id ?? "";
    expect((await sagaOf(firstId)).nextCheckAtMs).toBe(scheduledRunAtMs(first, firstId, "early"));

    const ran = await runAtSlot(pool, firstId);
    expect(ran.state).not.toBe("scheduled");
    expect((await waitForFinalState(accountId, firstId)).state).toBe("completed");

    const after = await recurrenceOf(accountId, recurrence.id);
    const secondDate = occurrenceDate(first, "weekly", 2);
    expect(after).toMatchObject({ state: "active", next_date: secondDate });
    expect(after.occurrences.map((o) => [o.date, o.retry_transfer_id])).toEqual([
      [first, null],
      [secondDate, null],
    ]);
    const secondId = after.occurrences[1]?.transfer_id ?? "";
    const second = transferSchema.parse(await getTransfer(accountId, secondId));
    expect(second).toMatchObject({
      state: "scheduled",
      scheduled_for: secondDate,
      recurring_transfer_id: recurrence.id,
      amount_cents: 2_500,
    });
    expect((await sagaOf(secondId)).nextCheckAtMs).toBe(scheduledRunAtMs(secondDate, secondId, "early"));
  });

  it("ends the recurrence finished after its last occurrence, opening nothing more", async () => {
    const accountId = await fundedAccount(10_000);
    const recurrence = await created(accountId, { frequency: "weekly", count: 2 });
    await runAtSlot(pool, recurrence.occurrences[0]?.transfer_id ?? "");
    const secondId = (await recurrenceOf(accountId, recurrence.id)).occurrences[1]?.transfer_id ?? "";
    await runAtSlot(pool, secondId);
    const finished = await recurrenceOf(accountId, recurrence.id);
    expect(finished).toMatchObject({ state: "finished", next_date: null });
    expect(finished.occurrences).toHaveLength(2);
    const { rows } = await pool.query("SELECT id FROM transfers WHERE recurring_transfer_id = $1", [recurrence.id]);
    expect(rows).toHaveLength(2);
  });

  it("is woken and armed by the object of the occurrence before it, which runs at its own alarm", async () => {
    const accountId = await fundedAccount(10_000);
    const recurrence = await created(accountId, { frequency: "monthly", count: 2 });
    const firstId = recurrence.occurrences[0]?.transfer_id ?? "";
    // Its slot has come: the object's alarm runs it with the wall clock.
    await pool.query("UPDATE transfers SET next_check_at = now() - interval '1 second' WHERE id = $1", [firstId]);
    await runInDurableObject(stub(firstId), (_, state) => state.storage.deleteAll());
    expect(await stub(firstId).ensureArmed()).toEqual({ outcome: "armed" });
    // The alarm is due at once (it may already have fired by itself).
    await runDurableObjectAlarm(stub(firstId));
    expect((await waitForFinalState(accountId, firstId)).state).toBe("completed");
    const after = await recurrenceOf(accountId, recurrence.id);
    const secondId = after.occurrences[1]?.transfer_id ?? "";
    expect(secondId).not.toBe("");
    const secondDate = occurrenceDate(recurrence.first_date, "monthly", 2);
    await expect.poll(() => alarmOf(secondId)).toBe(scheduledRunAtMs(secondDate, secondId, "early"));
  });
});

describe("too little available at the morning run", () => {
  it("ends the occurrence compensated and opens one retry from 18:00 to 20:00 that day, which pays with the money credited since", async () => {
    const accountId = await fundedAccount(0);
    const first = saoPauloDayFromToday(1);
    const recurrence = await created(accountId, { first_date: first, frequency: "weekly", count: 2 });
    const firstId = recurrence.occurrences[0]?.transfer_id ?? "";
    expect(await runAtSlot(pool, firstId)).toMatchObject({ state: "compensated" });
    const occurrence = await getTransfer(accountId, firstId);
    expect(occurrence).toMatchObject({ state: "compensated", failure_reason: "insufficient_funds" });

    const after = await recurrenceOf(accountId, recurrence.id);
    const retryId = after.occurrences[0]?.retry_transfer_id ?? "";
    expect(retryId).not.toBe("");
    // The next occurrence opened anyway: it ran on its day.
    expect(after).toMatchObject({ state: "active", next_date: occurrenceDate(first, "weekly", 2) });
    const retry = transferSchema.parse(await getTransfer(accountId, retryId));
    expect(retry).toMatchObject({ state: "scheduled", scheduled_for: first, recurring_transfer_id: recurrence.id });
    const retrySlot = saoPauloClock((await sagaOf(retryId)).nextCheckAtMs ?? 0);
    expect(retrySlot.day).toBe(first);
    expect(retrySlot.minuteOfDay).toBeGreaterThanOrEqual(18 * 60);
    expect(retrySlot.minuteOfDay).toBeLessThan(20 * 60);

    await creditAccount(accountId, 5_000);
    expect((await runAtSlot(pool, retryId)).state).not.toBe("scheduled");
    expect((await waitForFinalState(accountId, retryId)).state).toBe("completed");
    // Each change is an event of its own transfer, which names the recurrence.
    const { rows } = await pool.query<{ transfer_id: string; state: string; recurring: string }>(
      `SELECT transfer_id, data->>'state' AS state, data->>'recurring_transfer_id' AS recurring
         FROM transfer_events WHERE transfer_id = ANY($1::uuid[]) AND type = 'transfer.updated' ORDER BY transfer_id, sequence`,
      [[firstId, retryId]],
    );
    expect(new Set(rows.map((r) => r.recurring))).toEqual(new Set([recurrence.id]));
    expect(rows.filter((r) => r.transfer_id === firstId).map((r) => r.state)).toEqual(["scheduled", "started", "compensated"]);
    expect(rows.filter((r) => r.transfer_id === retryId).map((r) => r.state)[0]).toBe("scheduled");
  });

  it("makes the retry's failure final: no second retry", async () => {
    const accountId = await fundedAccount(0);
    const recurrence = await created(accountId, { frequency: "weekly", count: 2 });
    const firstId = recurrence.occurrences[0]?.transfer_id ?? "";
    await runAtSlot(pool, firstId);
    const retryId = (await recurrenceOf(accountId, recurrence.id)).occurrences[0]?.retry_transfer_id ?? "";
    expect(await runAtSlot(pool, retryId)).toMatchObject({ state: "compensated" });
    expect(await getTransfer(accountId, retryId)).toMatchObject({ failure_reason: "insufficient_funds" });
    const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM transfers WHERE recurring_transfer_id = $1", [
      recurrence.id,
    ]);
    // The occurrence, its one retry, and the next occurrence.
    expect(Number(rows[0]?.n)).toBe(3);
  });
});

describe("monthly on the 31st", () => {
  it("takes the shorter month's last day, then comes back to the 31st", async () => {
    const accountId = await fundedAccount(100_000);
    const first = nextThirtyFirstBeforeAShortMonth();
    const recurrence = await created(accountId, { first_date: first, frequency: "monthly", count: 3 });
    await runAtSlot(pool, recurrence.occurrences[0]?.transfer_id ?? "");
    const second = (await recurrenceOf(accountId, recurrence.id)).occurrences[1];
    await runAtSlot(pool, second?.transfer_id ?? "");
    const dates = (await recurrenceOf(accountId, recurrence.id)).occurrences.map((o) => o.date);
    expect(dates).toEqual([first, occurrenceDate(first, "monthly", 2), occurrenceDate(first, "monthly", 3)]);
    expect(Number(dates[1]?.slice(8))).toBeLessThan(31);
    expect(dates[2]?.endsWith("-31")).toBe(true);
  });
});

describe("canceling", () => {
  it("skips an occurrence canceled on its own: the next one opens at once", async () => {
    const accountId = await fundedAccount(0);
    const recurrence = await created(accountId, { frequency: "monthly", count: 3 });
    const firstId = recurrence.occurrences[0]?.transfer_id ?? "";
    expect((await cancel(accountId, firstId)).status).toBe(200);
    const after = await recurrenceOf(accountId, recurrence.id);
    expect(after).toMatchObject({ state: "active", next_date: occurrenceDate(recurrence.first_date, "monthly", 2) });
    expect(after.occurrences).toHaveLength(2);
    expect((await getTransfer(accountId, firstId)).state).toBe("canceled");
  });

  it("cancels the recurrence with everything still waiting: the next occurrence and the evening retry", async () => {
    const accountId = await fundedAccount(0);
    const recurrence = await created(accountId, { frequency: "weekly", count: 3 });
    await runAtSlot(pool, recurrence.occurrences[0]?.transfer_id ?? "");
    const before = await recurrenceOf(accountId, recurrence.id);
    const retryId = before.occurrences[0]?.retry_transfer_id ?? "";
    const nextId = before.occurrences[1]?.transfer_id ?? "";
    const canceled = await expectJson(await cancelRecurring(accountId, recurrence.id), 200, recurringTransferSchema);
    expect(canceled).toMatchObject({ state: "canceled", next_date: null });
    expect((await getTransfer(accountId, retryId)).state).toBe("canceled");
    expect((await getTransfer(accountId, nextId)).state).toBe("canceled");
    // A run that comes anyway (a stale object's) finds nothing to run and opens nothing.
    const stale = await sagaOf(nextId);
    const late = await runScheduledTransfer(pool, nextId, Date.now(), readRuleSettings(env), null, {
      deadline_ms: 4_000,
      next: { occurrence: 3, date: "2099-01-01", id: crypto.randomUUID(), run_at_ms: 0 },
      retry: null,
    });
    expect(stale.state).toBe("canceled");
    expect(late).toMatchObject({ outcome: "state_mismatch", opened: [] });
    const { rows } = await pool.query("SELECT id FROM transfers WHERE recurring_transfer_id = $1", [recurrence.id]);
    expect(rows).toHaveLength(3);
  });
});

describe("a cancel racing the run", () => {
  it("either cancels the occurrence before it runs or lets the run open the next one, which it then cancels: nothing waits after", async () => {
    for (let round = 0; round < 4; round++) {
      const accountId = await fundedAccount(10_000);
      const recurrence = await created(accountId, { frequency: "weekly", count: 3 });
      const firstId = recurrence.occurrences[0]?.transfer_id ?? "";
      const [ran, canceled] = await Promise.allSettled([runAtSlot(pool, firstId), cancelRecurring(accountId, recurrence.id)]);
      expect(canceled.status === "fulfilled" && canceled.value.status).toBe(200);
      const { rows } = await pool.query<{ state: string; occurrence: number }>(
        "SELECT state, occurrence FROM transfers WHERE recurring_transfer_id = $1 ORDER BY occurrence",
        [recurrence.id],
      );
      if (ran.status === "fulfilled") {
        // The run came first: the occurrence started, and the next one it opened was canceled.
        expect(rows.map((r) => r.state)).toEqual([expect.not.stringMatching(/^(scheduled|canceled)$/), "canceled"]);
      } else {
        // The cancel came first: the run found nothing scheduled and opened nothing.
        expect(rows).toEqual([{ state: "canceled", occurrence: 1 }]);
      }
      expect(await recurrenceOf(accountId, recurrence.id)).toMatchObject({ state: "canceled", next_date: null });
    }
  });
});

describe("the money stays exact", () => {
  it("keeps every invariant over the accounts above", async () => {
    expect(accountsUsed.length).toBeGreaterThan(5);
    expect(await checkInvariants(pool, { accountIds: accountsUsed })).toEqual([]);
  });
});
