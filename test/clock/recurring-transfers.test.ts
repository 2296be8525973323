// Recurring transfers on business time (CONTRACT §2 "Recurring transfers", §4 "Test clock"):
// `first_date` is read against business today. Each test moves the clock relative to business
// now (the `clock` project shares one clock that only moves forward) and uses fresh accounts.
import { describe, expect, it } from "vitest";
import { recurringTransferSchema } from "../../src/contract/schemas.ts";
import { expectJson, expectValidationProblem } from "../api/helpers.ts";
import { fundedAccount } from "../support/api.ts";
import { advanceClock, businessNow } from "../support/clock.ts";
import { filePool } from "../support/pool-test.ts";
import { createRecurring, recurrenceCount, recurringBody } from "../support/recurring.ts";
import { saoPauloDayFromToday } from "../support/schedule.ts";

const pool = filePool(1);
const dayMs = 86_400_000;

describe("creating a recurring transfer on business time", () => {
  it("reads first_date against business today: the wall clock's tomorrow is past once the clock moved three days", async () => {
    await advanceClock(3 * dayMs);
    const accountId = await fundedAccount(10_000);
    const refused = await createRecurring(accountId, recurringBody({ first_date: saoPauloDayFromToday(1) }));
    await expectValidationProblem(refused, "first_date");
    expect(await recurrenceCount(pool, accountId)).toBe(0);
    const businessTomorrow = saoPauloDayFromToday(1, await businessNow());
    const created = await createRecurring(accountId, recurringBody({ first_date: businessTomorrow }));
    expect(await expectJson(created, 201, recurringTransferSchema)).toMatchObject({
      first_date: businessTomorrow,
      next_date: businessTomorrow,
    });
  });
});
