// Recurring transfers on business time (CONTRACT §2 "Recurring transfers", §4 "Test clock"):
// `first_date` is read against business today; each occurrence runs in the early hours of its
// date and the evening retry between 18:00 and 20:00, as the clock reaches them; a run decided
// after that window gets no retry; a cancel leaves nothing to run. Each test moves the clock
// relative to business now (the `clock` project shares one clock that only moves forward) and
// uses fresh accounts.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { recurringTransferSchema } from "../../src/contract/schemas.ts";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { occurrenceDate } from "../../src/saga/recurrence.ts";
import { runWindowEndsAtMs } from "../../src/saga/schedule.ts";
import { expectJson, expectValidationProblem } from "../api/helpers.ts";
import { creditAccount, fundedAccount, getBalance, getTransfer, type TransferJson, waitForFinalState } from "../support/api.ts";
import { advanceClock, advanceClockTo, businessNow, saoPauloAtMs } from "../support/clock.ts";
import { checkInvariants } from "../support/invariants.ts";
import { clientLimitsOf } from "../support/limits.ts";
import { filePool } from "../support/pool-test.ts";
import { cancelRecurring, createRecurring, getRecurring, recurrenceCount, recurringBody } from "../support/recurring.ts";
import { saoPauloDayFromToday, scheduledBody, scheduleTransfer } from "../support/schedule.ts";

const pool = filePool(1);
const dayMs = 86_400_000;
const accountsUsed: string[] = [];
type RecurringTransfer = z.infer<typeof recurringTransferSchema>;

/** Past the early window (00:00 to 06:00) of `day`: its occurrence is due. */
const morningOf = (day: string): number => saoPauloAtMs(day, 6) + 60_000;

async function account(balanceCents: number): Promise<string> {
  const accountId = await fundedAccount(balanceCents);
  accountsUsed.push(accountId);
  return accountId;
}

async function created(accountId: string, overrides: Record<string, unknown>): Promise<RecurringTransfer> {
  return expectJson(await createRecurring(accountId, recurringBody(overrides)), 201, recurringTransferSchema);
}

async function recurrenceOf(accountId: string, id: string): Promise<RecurringTransfer> {
  return expectJson(await getRecurring(accountId, id), 200, recurringTransferSchema);
}

/** Occurrence `occurrence` (1 is the first)'s transfer, once it has opened. */
function occurrenceId(recurrence: RecurringTransfer, occurrence: number): string {
  const id = recurrence.occurrences[occurrence - 1]?.transfer_id;
  if (id === undefined) throw new Error(`occurrence ${occurrence} of ${recurrence.id} has not opened`);
  return id;
}

/** The first January 31 after business today (always within the 365 days a schedule may reach). */
function nextJanuary31(today: string): string {
  const year = Number(today.slice(0, 4));
  const thisYear = `${year}-01-31`;
  return thisYear > today ? thisYear : `${year + 1}-01-31`;
}

describe("creating a recurring transfer on business time", () => {
  it("reads first_date against business today: the wall clock's tomorrow is past once the clock moved three days", async () => {
    await advanceClock(3 * dayMs);
    const accountId = await account(10_000);
    const refused = await createRecurring(accountId, recurringBody({ first_date: saoPauloDayFromToday(1) }));
    await expectValidationProblem(refused, "first_date");
    expect(await recurrenceCount(pool, accountId)).toBe(0);
    const businessTomorrow = saoPauloDayFromToday(1, await businessNow());
    expect(await created(accountId, { first_date: businessTomorrow })).toMatchObject({
      first_date: businessTomorrow,
      next_date: businessTomorrow,
    });
  });
});

describe("occurrences as the clock reaches their dates", () => {
  it("runs a weekly recurrence's occurrences each on its date, the next one waiting until then, and finishes after the last", async () => {
    const accountId = await account(10_000);
    const first = saoPauloDayFromToday(1, await businessNow());
    const recurrence = await created(accountId, { first_date: first, frequency: "weekly", count: 3 });
    const dates = [1, 2, 3].map((n) => occurrenceDate(first, "weekly", n));
    expect(dates).toEqual([first, saoPauloDayFromToday(7, morningOf(first)), saoPauloDayFromToday(14, morningOf(first))]);

    for (const [i, date] of dates.entries()) {
      await advanceClockTo(morningOf(date));
      const id = occurrenceId(await recurrenceOf(accountId, recurrence.id), i + 1);
      expect(await waitForFinalState(accountId, id)).toMatchObject({ state: "completed", scheduled_for: date });
      // It ran in its own São Paulo day: that day's limit counts it.
      expect(await clientLimitsOf(accountId)).toMatchObject({ day: date, used_today_cents: 2_500 });
      const after = await recurrenceOf(accountId, recurrence.id);
      if (i + 1 < dates.length) {
        expect(after).toMatchObject({ state: "active", next_date: dates[i + 1] });
        expect(await getTransfer(accountId, occurrenceId(after, i + 2))).toMatchObject({ state: "scheduled" });
      }
    }
    const finished = await recurrenceOf(accountId, recurrence.id);
    expect(finished).toMatchObject({ state: "finished", next_date: null });
    expect(finished.occurrences.map((o) => [o.date, o.retry_transfer_id])).toEqual(dates.map((d) => [d, null]));
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000 - 3 * 2_500, held_cents: 0 });
  });

  it("anchors a monthly recurrence on January 31 to February's last day, then back to March 31", async () => {
    const accountId = await account(10_000);
    const first = nextJanuary31(saoPauloClock(await businessNow()).day);
    const year = Number(first.slice(0, 4));
    const februaryLast = `${year}-02-${new Date(Date.UTC(year, 2, 0)).getUTCDate()}`;
    const recurrence = await created(accountId, { first_date: first, frequency: "monthly", count: 3 });

    for (const [i, date] of [first, februaryLast, `${year}-03-31`].entries()) {
      await advanceClockTo(morningOf(date));
      const before = await recurrenceOf(accountId, recurrence.id);
      expect(before.next_date).toBe(date);
      expect(await waitForFinalState(accountId, occurrenceId(before, i + 1))).toMatchObject({ state: "completed", scheduled_for: date });
    }
    const finished = await recurrenceOf(accountId, recurrence.id);
    expect(finished).toMatchObject({ state: "finished", next_date: null });
    expect(finished.occurrences.map((o) => o.date)).toEqual([first, februaryLast, `${year}-03-31`]);
  });
});

describe("too little available at the morning run", () => {
  /** A weekly recurrence of 2 from business tomorrow on 1_000 of 2_500, its first run at `runAtMs(first date)`. */
  async function firstRunShort(runAtMs: (first: string) => number) {
    const accountId = await account(1_000);
    const first = saoPauloDayFromToday(1, await businessNow());
    const recurrence = await created(accountId, { first_date: first, frequency: "weekly", count: 2 });
    await advanceClockTo(runAtMs(first));
    const firstId = occurrenceId(recurrence, 1);
    expect(await waitForFinalState(accountId, firstId)).toMatchObject({ state: "compensated", failure_reason: "insufficient_funds" });
    const after = await recurrenceOf(accountId, recurrence.id);
    expect(after).toMatchObject({ state: "active", next_date: occurrenceDate(first, "weekly", 2) });
    return { accountId, first, after };
  }

  it("ends the occurrence compensated and pays its one retry once the clock reaches 18:00 to 20:00 that day, with the money credited since", async () => {
    const { accountId, first, after } = await firstRunShort(morningOf);
    const retryId = after.occurrences[0]?.retry_transfer_id ?? "";
    expect(retryId).not.toBe("");
    // Its slot is in the evening: the morning's advance left it waiting.
    expect(await getTransfer(accountId, retryId)).toMatchObject({
      state: "scheduled",
      scheduled_for: first,
      recurring_transfer_id: after.id,
    });

    await creditAccount(accountId, 5_000);
    await advanceClockTo(runWindowEndsAtMs(first, "recurring_retry"));
    expect(await waitForFinalState(accountId, retryId)).toMatchObject({ state: "completed" });
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 1_000 + 5_000 - 2_500, held_cents: 0 });
    // The next occurrence still waits for its own date.
    expect(await getTransfer(accountId, occurrenceId(after, 2))).toMatchObject({ state: "scheduled" });
  });

  it("gives no retry to an occurrence that first runs after its day's retry window closed (business time decides)", async () => {
    const { after } = await firstRunShort((first) => runWindowEndsAtMs(first, "recurring_retry") + 60_000);
    expect(after.occurrences.map((o) => o.retry_transfer_id)).toEqual([null, null]);
  });
});

describe("canceling", () => {
  it("stops every future occurrence: nothing runs on their dates, while a schedule of the same account on the last date does", async () => {
    const accountId = await account(10_000);
    const first = saoPauloDayFromToday(1, await businessNow());
    const recurrence = await created(accountId, { first_date: first, frequency: "weekly", count: 3 });
    await advanceClockTo(morningOf(first));
    expect(await waitForFinalState(accountId, occurrenceId(recurrence, 1))).toMatchObject({ state: "completed" });

    const canceled = await expectJson(await cancelRecurring(accountId, recurrence.id), 200, recurringTransferSchema);
    expect(canceled).toMatchObject({ state: "canceled", next_date: null });
    const secondId = occurrenceId(canceled, 2);
    expect(await getTransfer(accountId, secondId)).toMatchObject({ state: "canceled" });

    // A witness due on the last date: once it has run, the sweep has passed every date after the cancel.
    const lastDate = occurrenceDate(first, "weekly", 3);
    const witness = await scheduleTransfer(accountId, scheduledBody(lastDate, 1_000));
    expect(witness.status).toBe(202);
    await advanceClockTo(morningOf(lastDate));
    expect(await waitForFinalState(accountId, (await witness.json<TransferJson>()).id)).toMatchObject({ state: "completed" });

    const later = await recurrenceOf(accountId, recurrence.id);
    expect(later).toMatchObject({ state: "canceled", next_date: null });
    expect(later.occurrences.map((o) => o.transfer_id)).toEqual([occurrenceId(recurrence, 1), secondId]);
    expect(await getTransfer(accountId, secondId)).toMatchObject({ state: "canceled" });
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000 - 2_500 - 1_000, held_cents: 0 });
  });
});

describe("the money stays exact", () => {
  it("keeps every invariant over the accounts above", async () => {
    expect(accountsUsed.length).toBeGreaterThan(5);
    expect(await checkInvariants(pool, { accountIds: accountsUsed })).toEqual([]);
  });
});
