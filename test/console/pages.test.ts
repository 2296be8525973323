// Each console page renders for a signed-in operator with the facts it exists to show.
import { beforeAll, describe, expect, it } from "vitest";
import { transferReturnApply } from "../../src/transfers/returns.ts";
import { createTransfer, fundedAccount, type TransferJson, waitForFinalState } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { csrfFor, getPage, login, postForm } from "./support.ts";

const pool = filePool(2);

let cookie: string;
let accountId: string;
let completed: TransferJson;

beforeAll(async () => {
  cookie = await login();
  accountId = await fundedAccount(123_456);
  const created = await createTransfer(accountId, {
    amount_cents: 2_500,
    pix_key: "100.000.001-08",
    pix_key_type: "cpf",
    description: "aluguel",
  });
  completed = await waitForFinalState(accountId, (await created.json<TransferJson>()).id);
  expect(completed.state).toBe("completed");
});

async function pageText(path: string): Promise<string> {
  const response = await getPage(path, cookie);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/html");
  return response.text();
}

describe("console pages", () => {
  it("search: the search form and the review queue summary", async () => {
    const html = await pageText("/console/search");
    expect(html).toContain("<h1>Search</h1>");
    expect(html).toContain('<label for="q">Transfer id, end_to_end_id or account id</label>');
    expect(html).toContain("Waiting for review");
  });

  it("search goes straight to the one transfer or account it finds", async () => {
    for (const [query, location] of [
      [completed.id, `/console/transfers/${completed.id}`],
      [completed.id.toUpperCase(), `/console/transfers/${completed.id}`],
      [completed.end_to_end_id ?? "", `/console/transfers/${completed.id}`],
      [accountId, `/console/accounts/${accountId}`],
    ] as const) {
      const response = await getPage(`/console/search?q=${encodeURIComponent(` ${query} `)}`, cookie);
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe(location);
    }
    expect(await pageText("/console/search?q=nothing-has-this-id")).toContain("Nothing matches");
  });

  it("transfer: timeline with reasons and actors, provider evidence, hold and ledger entries", async () => {
    const html = await pageText(`/console/transfers/${completed.id}`);
    expect(html).toContain(`<h1>Transfer ${completed.id}</h1>`);
    expect(html).toContain("R$ 25,00");
    for (const state of ["started", "funds_reserved", "submitted", "completed"]) expect(html).toContain(`state-${state}`);
    expect(html).toContain("Provider evidence");
    // Our record beside the provider's last word about it, every field stated there agreeing.
    expect(html).toMatch(/Our record against the provider&#39;s last definitive answer \(status at [^)]+\): they agree<\/caption>/);
    expect(html).toContain(
      `<tr><th scope="row">Amount</th><td data-label="Ours"><code>R$ 25,00</code></td><td data-label="The provider&#39;s"><code>R$ 25,00</code>`,
    );
    expect(html).toContain("<summary>Raw answer</summary>");
    expect(html).toContain('<td data-label="Call">send</td>');
    // The summary counts the calls listed below it (the saga's backoff counter misses the last check).
    const calls = (kind: string): number => html.split(`<td data-label="Call">${kind}</td>`).length - 1;
    expect(calls("send")).toBe(1);
    expect(calls("status")).toBeGreaterThanOrEqual(1);
    expect(html).toContain(`1 send, ${calls("status")} status check${calls("status") === 1 ? "" : "s"}`);
    expect(html).toContain(completed.end_to_end_id ?? "no end_to_end_id");
    expect(html).toContain("Hold status");
    expect(html).toContain("<strong>settled</strong>");
    expect(html).toContain("Ledger entries of the settlement");
    expect(html).toContain("Nothing came back: no return was reported for this Pix.");
    expect(html).not.toContain("What happened to this Pix?");
    // Its outbound events, one per history row, unsent here (no EVENTS_URL in this project).
    expect(html).toContain("Outbound events");
    expect(html.split('<td data-label="Attempts">not attempted</td>').length - 1).toBe(4);
  });

  it("transfer: each return with its amount and reason, and its ledger entries", async () => {
    const returnedAccountId = await fundedAccount(10_000);
    const created = await createTransfer(returnedAccountId, { amount_cents: 3_000, pix_key: "100.000.001-08", pix_key_type: "cpf" });
    const returned = await waitForFinalState(returnedAccountId, (await created.json<TransferJson>()).id);
    expect(returned.state).toBe("completed");
    const returnId = `D${crypto.randomUUID().replaceAll("-", "")}`;
    const found = { id: returnId, amountCents: 1_200, reason: "fraud", atMs: Date.now() } as const;
    expect(await transferReturnApply(pool, returned.id, found)).toBe("applied");

    const html = await pageText(`/console/transfers/${returned.id}`);
    expect(html).toContain('<h2 id="returns-heading">Returns</h2>');
    expect(html).toContain("R$ 12,00 of R$ 30,00 came back, credited to the account");
    expect(html).toContain(`<code>${returnId}</code>`);
    expect(html).toContain('<td data-label="Reason">fraud</td>');
    expect(html).toContain("R$ 12,00 in 1 return");
    // The settlement's pair and the return's pair.
    expect(html.split('<td data-label="Balance after"').length - 1).toBe(4);
  });

  it("account: balance, held and available, entries and transfers", async () => {
    const html = await pageText(`/console/accounts/${accountId}`);
    expect(html).toContain(`<h1>Account ${accountId}</h1>`);
    expect(html).toContain("R$ 1.209,56"); // 1.234,56 credited, 25,00 sent
    expect(html).toContain("Recent ledger entries");
    expect(html).toContain('<td data-label="Kind">credit</td>');
    expect(html).toContain('<td data-label="Kind">settle</td>');
    expect(html).toContain(`/console/transfers/${completed.id}`);
  });

  it("queue: the needs_review transfers with a total", async () => {
    const html = await pageText("/console/queue");
    expect(html).toContain("<h1>Review queue</h1>");
    expect(html).toContain("Total frozen");
  });

  it("reconciliation: runs on view and again on the button", async () => {
    expect(await pageText("/console/reconciliation")).toContain("<strong>Reconciled.</strong>");
    const ran = await postForm("/console/reconciliation", { csrf: await csrfFor(cookie) }, cookie);
    expect(ran.status).toBe(200);
    expect(await ran.text()).toContain("<strong>Reconciled.</strong>");
    expect((await postForm("/console/reconciliation", {}, cookie)).status).toBe(403);
  });

  it("audit: shows the account's actions, and refuses a cursor it did not issue (an entry id included)", async () => {
    const html = await pageText(`/console/audit?account_id=${accountId}`);
    expect(html).toContain("account_created");
    for (const cursor of ["1", "5", `${btoa("1").replaceAll("=", "")}.${"A".repeat(43)}`]) {
      const refused = await getPage(`/console/audit?cursor=${encodeURIComponent(cursor)}`, cookie);
      expect(refused.status, cursor).toBe(400);
    }
  });

  it("an unknown transfer or account is a 404 page", async () => {
    expect((await getPage(`/console/transfers/${crypto.randomUUID()}`, cookie)).status).toBe(404);
    expect((await getPage("/console/transfers/not-a-uuid", cookie)).status).toBe(404);
    expect((await getPage("/console/accounts/acct-nobody-has-this", cookie)).status).toBe(404);
  });

  it("serves its stylesheet to anyone, and nothing else without a session", async () => {
    const css = await getPage("/console/styles.css", null);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toContain("text/css");
    expect((await getPage(`/console/transfers/${completed.id}`, null)).status).toBe(303);
  });
});
