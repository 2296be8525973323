// A recurring transfer requested at night (CONTRACT §2 `scheduled_for`, "Recurring transfers";
// issue 28 item 5): its first occurrence is a schedule asked for now, so inside the account's
// night window of business time it meets the night rules as a one-off schedule does. Refused
// (above the night cap, or beyond the night total with that window's transfers and schedules),
// the recurrence is created with its first occurrence compensated and its second waiting;
// allowed, the first occurrence counts toward that night until it is known not to pay. Each
// test moves the clock to the time of day it needs, relative to business now, with fresh accounts.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { clientLimitsSchema, recurringTransferSchema } from "../../src/contract/schemas.ts";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { occurrenceDate } from "../../src/saga/recurrence.ts";
import { expectJson } from "../api/helpers.ts";
import { call, clientHeaders, createTransfer, getBalance, getTransfer, type TransferJson, waitForFinalState } from "../support/api.ts";
import { advanceClockTo, advanceToSaoPaulo, businessNow, saoPauloAtMs } from "../support/clock.ts";
import { checkInvariants } from "../support/invariants.ts";
import { filePool } from "../support/pool-test.ts";
import { cancelRecurring, createRecurring, recurringBody } from "../support/recurring.ts";
import { saoPauloDayFromToday, scheduledBody, scheduleTransfer } from "../support/schedule.ts";
import { accountTracker } from "../support/tracked-accounts.ts";

const pool = filePool(1);
/** Above the default night cap (NIGHT_TRANSFER_LIMIT_CENTS, R$ 1,000.00), within every daytime limit. */
const aboveNightCapCents = 150_000;
const accounts = accountTracker();
type RecurringTransfer = z.infer<typeof recurringTransferSchema>;

/** A weekly recurrence of 3 from business tomorrow. */
async function bodyFor(amountCents: number) {
  return recurringBody({
    amount_cents: amountCents,
    first_date: saoPauloDayFromToday(1, await businessNow()),
    frequency: "weekly",
    count: 3,
  });
}

async function created(accountId: string, amountCents: number, key?: string): Promise<RecurringTransfer> {
  return expectJson(await createRecurring(accountId, await bodyFor(amountCents), key), 201, recurringTransferSchema);
}

async function firstOccurrence(accountId: string, recurrence: RecurringTransfer): Promise<TransferJson> {
  return getTransfer(accountId, recurrence.occurrences[0]?.transfer_id ?? "");
}

async function usedTonightCents(accountId: string): Promise<number> {
  const response = await call("/v1/limits", { headers: await clientHeaders(accountId) });
  expect(response.status).toBe(200);
  return clientLimitsSchema.parse(await response.json()).used_tonight_cents;
}

/** Whether a transfer was charged to a night when it was asked for. */
async function nightCharges(transferId: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM transfers WHERE id = $1 AND night_evening IS NOT NULL", [
    transferId,
  ]);
  return Number(rows[0]?.n ?? 0);
}

const refusedAt = (rule: string) => ({ state: "compensated", failure_reason: "limit_exceeded", failure_code: rule });

describe("a recurrence requested in the daytime", () => {
  it("meets no night rule and charges no night", async () => {
    await advanceToSaoPaulo("12:00");
    const accountId = await accounts.account(1_000_000);
    const recurrence = await created(accountId, aboveNightCapCents);
    const first = await firstOccurrence(accountId, recurrence);
    expect(first).toMatchObject({ state: "scheduled", failure_reason: null });
    expect(await nightCharges(first.id)).toBe(0);
  });
});

describe("a recurrence requested inside the night window", () => {
  it("has its first occurrence refused above the night cap, as a one-off schedule; the second waits; a replay answers the same", async () => {
    await advanceToSaoPaulo("22:00");
    const accountId = await accounts.account(1_000_000);
    const key = crypto.randomUUID();
    const body = await bodyFor(aboveNightCapCents);
    const recurrence = await expectJson(await createRecurring(accountId, body, key), 201, recurringTransferSchema);
    const second = occurrenceDate(body.first_date as string, "weekly", 2);
    expect(recurrence).toMatchObject({ state: "active", next_date: second });
    expect(recurrence.occurrences.map((o) => [o.date, o.retry_transfer_id])).toEqual([
      [body.first_date, null],
      [second, null],
    ]);

    const first = await firstOccurrence(accountId, recurrence);
    expect(first).toMatchObject({ ...refusedAt("nighttime"), scheduled_for: body.first_date, recurring_transfer_id: recurrence.id });
    expect(first.history.map((h) => [h.state, h.reason])).toEqual([
      ["started", null],
      ["compensated", "limit_exceeded"],
    ]);
    expect(await getTransfer(accountId, recurrence.occurrences[1]?.transfer_id ?? "")).toMatchObject({
      state: "scheduled",
      scheduled_for: second,
    });
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 1_000_000, held_cents: 0 });
    expect(await usedTonightCents(accountId)).toBe(0);

    const replay = await createRecurring(accountId, body, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson(replay, 201, recurringTransferSchema)).toEqual(recurrence);
  });

  it("counts an allowed first occurrence toward the night total with that window's transfers and schedules, until it is canceled", async () => {
    await advanceToSaoPaulo("23:00");
    const accountId = await accounts.account(1_000_000);
    const allowed = await created(accountId, 60_000);
    expect(await firstOccurrence(accountId, allowed)).toMatchObject({ state: "scheduled", failure_reason: null });
    expect(await usedTonightCents(accountId)).toBe(60_000);

    const beyond = await created(accountId, 50_000);
    expect(await firstOccurrence(accountId, beyond)).toMatchObject(refusedAt("night_total"));
    expect(beyond.occurrences).toHaveLength(2);
    const oneOff = await scheduleTransfer(accountId, scheduledBody(saoPauloDayFromToday(2, await businessNow()), 40_000));
    expect(await oneOff.json<TransferJson>()).toMatchObject({ state: "scheduled" });
    expect(await usedTonightCents(accountId)).toBe(100_000);
    const now = await createTransfer(accountId, { amount_cents: 1, pix_key: "100.000.001-08", pix_key_type: "cpf" });
    expect(await now.json<TransferJson>()).toMatchObject(refusedAt("night_total"));

    // Canceled, it is known not to pay: the night gets its amount back.
    expect((await cancelRecurring(accountId, allowed.id)).status).toBe(200);
    expect(await usedTonightCents(accountId)).toBe(40_000);
    expect(await firstOccurrence(accountId, await created(accountId, 60_000))).toMatchObject({ state: "scheduled" });
    expect(await usedTonightCents(accountId)).toBe(100_000);
  });

  it("gives its amount back to that night when its run finds too little available", async () => {
    const requestedAtMs = await advanceToSaoPaulo("23:30");
    const evening = saoPauloClock(requestedAtMs).day;
    const accountId = await accounts.account(1_000);
    const recurrence = await created(accountId, 60_000);
    const first = await firstOccurrence(accountId, recurrence);
    expect(await nightCharges(first.id)).toBe(1);
    expect(await usedTonightCents(accountId)).toBe(60_000);

    await advanceClockTo(saoPauloAtMs(recurrence.first_date, 6) + 60_000);
    expect(await waitForFinalState(accountId, first.id)).toMatchObject({ state: "compensated", failure_reason: "insufficient_funds" });
    const { rows } = await pool.query<{ used_cents: string }>(
      "SELECT used_cents FROM limit_usage WHERE account_id = $1 AND period = 'night' AND starts_on = $2",
      [accountId, evening],
    );
    expect(rows.map((r) => Number(r.used_cents))).toEqual([0]);
    expect(await nightCharges(first.id)).toBe(0);
  });
});

describe("the money stays exact", () => {
  it("keeps every invariant over the accounts above, the nights' usage equal to their charges", async () => {
    expect(await checkInvariants(pool, { accountIds: accounts.used })).toEqual([]);
  });
});
