// Recurring transfers through the public API (CONTRACT §2, "Recurring transfers"): creation opens
// the recurrence and its first occurrence (an ordinary scheduled transfer, nothing held),
// Idempotency-Key replays, bad input refused writing nothing, the list with sealed cursors,
// reads scoped to the owner, and cancel.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { recurringTransferPageSchema, recurringTransferSchema, transferSchema } from "../../src/contract/schemas.ts";
import { scheduledRunAtMs } from "../../src/saga/schedule.ts";
import { call, clientHeaders, fundedAccount, getBalance, getTransfer } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { cancelRecurring, createRecurring, getRecurring, listRecurring, recurrenceCount, recurringBody } from "../support/recurring.ts";
import { saoPauloDayFromToday } from "../support/schedule.ts";
import { expectJson, expectProblem, expectValidationProblem, footprint } from "./helpers.ts";

const pool = filePool(2);

const alarmOf = (id: string): Promise<number | null> =>
  runInDurableObject(env.TRANSFER_SAGA.getByName(id), (_, state) => state.storage.getAlarm());

describe("creating a recurring transfer", () => {
  it("answers 201 with the recurrence and opens its first occurrence, scheduled on first_date with nothing held", async () => {
    const accountId = await fundedAccount(10_000);
    const firstDate = saoPauloDayFromToday(2);
    const response = await createRecurring(accountId, recurringBody({ first_date: firstDate, frequency: "weekly", count: 4 }));
    const recurrence = await expectJson(response, 201, recurringTransferSchema);
    expect(recurrence).toMatchObject({
      state: "active",
      amount_cents: 2_500,
      pix_key: "10000000108",
      pix_key_type: "cpf",
      description: "mesada",
      frequency: "weekly",
      first_date: firstDate,
      count: 4,
      next_date: firstDate,
    });
    expect(recurrence.occurrences).toEqual([{ date: firstDate, transfer_id: expect.any(String), retry_transfer_id: null }]);
    const occurrenceId = recurrence.occurrences[0]?.transfer_id ?? "";
    const occurrence = await getTransfer(accountId, occurrenceId);
    expect(transferSchema.parse(occurrence)).toMatchObject({
      state: "scheduled",
      scheduled_for: firstDate,
      amount_cents: 2_500,
      recurring_transfer_id: recurrence.id,
      history: [{ state: "scheduled", reason: null }],
    });
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000, held_cents: 0 });
    // Its object was woken: armed at the occurrence's early slot, like any scheduled transfer.
    expect(await alarmOf(occurrenceId)).toBe(scheduledRunAtMs(firstDate, occurrenceId, "early"));
    expect(await expectJson(await getRecurring(accountId, recurrence.id), 200, recurringTransferSchema)).toEqual(recurrence);
  });

  it("shows recurring_transfer_id as null on a transfer of no recurrence", async () => {
    const accountId = await fundedAccount(10_000);
    const response = await call("/v1/transfers", {
      method: "POST",
      headers: await clientHeaders(accountId, { "idempotency-key": crypto.randomUUID() }),
      body: JSON.stringify({ amount_cents: 100, pix_key: "100.000.001-08", pix_key_type: "cpf" }),
    });
    expect((await expectJson(response, 202, transferSchema)).recurring_transfer_id).toBeNull();
  });

  it("replays the same request byte for byte, and refuses the same key with another body (422)", async () => {
    const accountId = await fundedAccount(0);
    const key = crypto.randomUUID();
    const first = await createRecurring(accountId, recurringBody(), key);
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    // The same request, its CPF written another way.
    const replay = await createRecurring(accountId, recurringBody({ pix_key: "10000000108" }), key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await replay.text()).toBe(firstBody);
    await expectProblem(await createRecurring(accountId, recurringBody({ count: 4 }), key), 422, "idempotency-key-reused");
    expect(await recurrenceCount(pool, accountId)).toBe(1);
    expect((await footprint(pool, accountId)).transfers).toBe(1);
  });

  it("creates one recurrence for concurrent requests with one key", async () => {
    const accountId = await fundedAccount(0);
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => createRecurring(accountId, recurringBody(), key)));
    const bodies = await Promise.all(answers.map(async (a) => ({ status: a.status, body: await a.text() })));
    expect(bodies.map((b) => b.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(bodies.map((b) => b.body)).size).toBe(1);
    expect(await recurrenceCount(pool, accountId)).toBe(1);
    expect((await footprint(pool, accountId)).transfers).toBe(1);
  });

  it.each([
    [
      "a BR Code",
      { br_code: "00020126330014br.gov.bcb.pix0111100000001085204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***6304ABCD" },
      "",
    ],
    ["a count of 1", { count: 1 }, "count"],
    ["a count of 61", { count: 61 }, "count"],
    ["a count that is not an integer", { count: 2.5 }, "count"],
    ["a daily frequency", { frequency: "daily" }, "frequency"],
    ["a first date of today", { first_date: saoPauloDayFromToday(0) }, "first_date"],
    ["a first date 366 days ahead", { first_date: saoPauloDayFromToday(366) }, "first_date"],
    ["a first date that does not exist", { first_date: "2027-02-30" }, "first_date"],
    ["an invalid CPF", { pix_key: "123.456.789-00" }, "pix_key"],
    ["an amount of 0", { amount_cents: 0 }, "amount_cents"],
    ["an amount over MAX_TRANSFER_CENTS", { amount_cents: 10_000_001 }, "amount_cents"],
    ["a control character", { description: "al\u0000uguel" }, "description"],
    ["a missing frequency", { frequency: undefined }, "frequency"],
  ])("refuses %s with 400, writing nothing", async (_label, overrides, field) => {
    const accountId = await fundedAccount(10_000);
    const before = await footprint(pool, accountId);
    await expectValidationProblem(await createRecurring(accountId, recurringBody(overrides)), field);
    expect(await footprint(pool, accountId)).toEqual(before);
    expect(await recurrenceCount(pool, accountId)).toBe(0);
  });

  it("refuses a request without Idempotency-Key (400)", async () => {
    const accountId = await fundedAccount(0);
    const response = await call("/v1/recurring-transfers", {
      method: "POST",
      headers: await clientHeaders(accountId),
      body: JSON.stringify(recurringBody()),
    });
    await expectValidationProblem(response, "Idempotency-Key");
    expect(await recurrenceCount(pool, accountId)).toBe(0);
  });
});

describe("reading recurring transfers", () => {
  it("lists them newest first, a page at a time, with cursors only this list issued", async () => {
    const accountId = await fundedAccount(0);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await expectJson(await createRecurring(accountId, recurringBody({ count: 2 + i })), 201, recurringTransferSchema)).id);
    }
    const first = await expectJson(await listRecurring(accountId, "?limit=2"), 200, recurringTransferPageSchema);
    expect(first.data.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    expect(first.next_cursor).not.toBeNull();
    const second = await expectJson(
      await listRecurring(accountId, `?limit=2&cursor=${encodeURIComponent(first.next_cursor ?? "")}`),
      200,
      recurringTransferPageSchema,
    );
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next_cursor: null });

    const altered = `${(first.next_cursor ?? "").slice(0, -2)}AA`;
    await expectValidationProblem(await listRecurring(accountId, `?cursor=${encodeURIComponent(altered)}`), "cursor");
    // Another account's cursor was not issued for this one.
    const other = await fundedAccount(0);
    await expectValidationProblem(await listRecurring(other, `?cursor=${encodeURIComponent(first.next_cursor ?? "")}`), "cursor");
    await expectValidationProblem(await listRecurring(accountId, "?limit=101"), "limit");
  });

  it("answers 404 for another account's recurrence and for none", async () => {
    const owner = await fundedAccount(0);
    const other = await fundedAccount(0);
    const { id } = await expectJson(await createRecurring(owner, recurringBody()), 201, recurringTransferSchema);
    await expectProblem(await getRecurring(other, id), 404, "not-found");
    await expectProblem(await getRecurring(owner, crypto.randomUUID()), 404, "not-found");
    await expectProblem(await getRecurring(owner, "not-an-id"), 404, "not-found");
    expect((await expectJson(await listRecurring(other), 200, recurringTransferPageSchema)).data).toEqual([]);
  });
});

describe("canceling a recurring transfer", () => {
  it("cancels it with its waiting occurrence (200), then refuses a second cancel (409)", async () => {
    const accountId = await fundedAccount(10_000);
    const created = await expectJson(await createRecurring(accountId, recurringBody()), 201, recurringTransferSchema);
    const occurrenceId = created.occurrences[0]?.transfer_id ?? "";
    const canceled = await expectJson(await cancelRecurring(accountId, created.id), 200, recurringTransferSchema);
    expect(canceled).toMatchObject({ id: created.id, state: "canceled", next_date: null, occurrences: created.occurrences });
    const occurrence = await getTransfer(accountId, occurrenceId);
    expect(occurrence.state).toBe("canceled");
    expect(occurrence.history.map((h) => [h.state, h.reason])).toEqual([
      ["scheduled", null],
      ["canceled", "canceled"],
    ]);
    // Its object heard of it: nothing left to wait for.
    await expect.poll(() => alarmOf(occurrenceId)).toBeNull();
    await expectProblem(await cancelRecurring(accountId, created.id), 409, "conflict");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000, held_cents: 0 });
  });

  it("answers 404 for another account's recurrence, canceling nothing", async () => {
    const owner = await fundedAccount(0);
    const other = await fundedAccount(0);
    const created = await expectJson(await createRecurring(owner, recurringBody()), 201, recurringTransferSchema);
    await expectProblem(await cancelRecurring(other, created.id), 404, "not-found");
    await expectProblem(await cancelRecurring(owner, "nope"), 404, "not-found");
    expect(await expectJson(await getRecurring(owner, created.id), 200, recurringTransferSchema)).toMatchObject({ state: "active" });
  });
});
