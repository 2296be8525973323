// The console shows scheduled transfers: the Scheduled page (next run first, with the total), and
// a transfer's page with the day it is scheduled for and its next run.
import { beforeAll, describe, expect, it } from "vitest";
import { fundedAccount, type TransferJson } from "../support/api.ts";
import { cancel, saoPauloDayFromToday, scheduledBody, scheduleTransfer } from "../support/schedule.ts";
import { getPage, login } from "./support.ts";

let cookie: string;
beforeAll(async () => {
  cookie = await login();
});

async function pageText(path: string): Promise<string> {
  const response = await getPage(path, cookie);
  expect(response.status).toBe(200);
  return response.text();
}

describe("scheduled transfers in the console", () => {
  it("lists a scheduled transfer on the Scheduled page, and drops it once canceled", async () => {
    const accountId = await fundedAccount(10_000);
    const day = saoPauloDayFromToday(4);
    const { id } = await (await scheduleTransfer(accountId, scheduledBody(day, 4_321))).json<TransferJson>();
    expect(await pageText("/console/scheduled")).toContain("<h1>Scheduled transfers</h1>");
    // The whole list shows the first 200 (other files leave schedules of their own): narrowed to
    // the account, the page shows exactly its one.
    const mine = `/console/scheduled?account=${accountId}`;
    const html = await pageText(mine);
    expect(html).toContain(`Transfers of ${accountId} in scheduled`);
    expect(html).toContain('<span class="label">Scheduled</span><span class="value">1</span>');
    expect(html).toContain(`href="/console/transfers/${id}"`);
    expect(html).toContain("R$ 43,21");
    expect(html).toContain(day);
    expect(html).toContain('href="/console/scheduled"');

    expect((await cancel(accountId, id)).status).toBe(200);
    expect(await pageText(mine)).not.toContain(`href="/console/transfers/${id}"`);
  });

  it("refuses a filter that is not an account id with a page, not a 5xx", async () => {
    for (const query of ["account=a%20b", "account=", "acount=x"]) {
      const response = await getPage(`/console/scheduled?${query}`, cookie);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("That filter is not valid");
    }
  });

  it("shows the day and the next run on the transfer's page, and the day still once canceled", async () => {
    const accountId = await fundedAccount(10_000);
    const day = saoPauloDayFromToday(5);
    const { id } = await (await scheduleTransfer(accountId, scheduledBody(day))).json<TransferJson>();
    const html = await pageText(`/console/transfers/${id}`);
    expect(html).toContain("<dt>Scheduled for</dt>");
    expect(html).toContain(`${day} (next run ${day}`);
    expect(html).toContain("nothing held until then");
    expect(html).toContain('class="state state-scheduled"');

    expect((await cancel(accountId, id)).status).toBe(200);
    const canceled = await pageText(`/console/transfers/${id}`);
    expect(canceled).toContain("<dt>Scheduled for</dt>");
    expect(canceled).toContain('class="state state-canceled"');
    expect(canceled).not.toContain("next run");
  });
});
