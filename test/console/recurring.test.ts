// The console's account page lists the account's recurring transfers, each with its occurrences
// so far (their transfers and states), and shows a recurrence's cancel.
import { beforeAll, describe, expect, it } from "vitest";
import { recurringTransferSchema } from "../../src/contract/schemas.ts";
import { expectJson } from "../api/helpers.ts";
import { fundedAccount } from "../support/api.ts";
import { cancelRecurring, createRecurring, recurringBody } from "../support/recurring.ts";
import { saoPauloDayFromToday } from "../support/schedule.ts";
import { getPage, login } from "./support.ts";

let cookie: string;
beforeAll(async () => {
  cookie = await login();
});

async function accountPage(accountId: string): Promise<string> {
  const response = await getPage(`/console/accounts/${accountId}`, cookie);
  expect(response.status).toBe(200);
  return response.text();
}

describe("recurring transfers on the account page", () => {
  it("says there is none for an account without any", async () => {
    const html = await accountPage(await fundedAccount(0));
    expect(html).toContain('<h2 id="recurring-heading">Recurring transfers</h2>');
    expect(html).toContain("No recurring transfer.");
  });

  it("lists each recurrence with what it pays and its occurrences, and its cancel", async () => {
    const accountId = await fundedAccount(10_000);
    const firstDate = saoPauloDayFromToday(6);
    const body = recurringBody({ amount_cents: 1_234, first_date: firstDate, frequency: "weekly", count: 5 });
    const recurrence = await expectJson(await createRecurring(accountId, body), 201, recurringTransferSchema);
    const occurrenceId = recurrence.occurrences[0]?.transfer_id ?? "";
    const html = await accountPage(accountId);
    expect(html).toContain(`<code>${recurrence.id}</code>`);
    expect(html).toContain(`R$ 12,34 weekly, 5 from ${firstDate}`);
    expect(html).toContain(`href="/console/transfers/${occurrenceId}"`);
    expect(html).toContain("state-active");
    expect(html).toContain("state-scheduled");

    expect((await cancelRecurring(accountId, recurrence.id)).status).toBe(200);
    const after = await accountPage(accountId);
    expect(after).toContain("state-canceled");
    expect(after).not.toContain("state-active");
  });
});
