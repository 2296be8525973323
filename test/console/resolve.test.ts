// Resolving from the console: refused without the session's CSRF token or from another origin,
// a confirmation step before anything moves, then the result at once; the queue shows it first.
import { beforeAll, describe, expect, it } from "vitest";
import { createTransfer, fundedAccount, getBalance, getTransfer, type TransferJson } from "../support/api.ts";
import { finalStateAtDeadline } from "../support/deadline.ts";
import { csrfFor, getPage, login, postForm } from "./support.ts";

const amountCents = 4_321;
let cookie: string;
let csrf: string;
let accountId: string;
let transferId: string;
let resolvePath: string;

beforeAll(async () => {
  cookie = await login();
  csrf = await csrfFor(cookie);
  accountId = await fundedAccount(10_000);
  const created = await createTransfer(accountId, { amount_cents: amountCents, pix_key: "processing@sandbox.test", pix_key_type: "email" });
  transferId = (await created.json<TransferJson>()).id;
  expect((await finalStateAtDeadline(accountId, transferId)).state).toBe("needs_review");
  resolvePath = `/console/transfers/${transferId}/resolve`;
});

async function expectStillInReview(): Promise<void> {
  expect((await getTransfer(accountId, transferId)).state).toBe("needs_review");
  expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000, held_cents: amountCents });
}

describe("resolving from the console", () => {
  it("lists the transfer in the queue with its frozen amount and age, and offers the form", async () => {
    const queue = await (await getPage("/console/queue", cookie)).text();
    expect(queue).toContain(`/console/transfers/${transferId}`);
    expect(queue).toContain("R$ 43,21");
    expect(queue).toMatch(/\d+ (s|min)/);
    const page = await (await getPage(`/console/transfers/${transferId}`, cookie)).text();
    expect(page).toContain("What happened to this Pix?");
    expect(page).toContain('<textarea id="note" name="note" required');
  });

  it("refuses a forged post: no token, another session's token, or another origin", async () => {
    const fields = { outcome: "not_sent", note: "forged", confirm: "yes" };
    const otherCsrf = await csrfFor(await login());
    for (const response of [
      await postForm(resolvePath, fields, cookie),
      await postForm(resolvePath, { ...fields, csrf: otherCsrf }, cookie),
      await postForm(resolvePath, { ...fields, csrf }, cookie, { origin: "https://evil.example" }),
      await postForm(resolvePath, { ...fields, csrf }, cookie, { origin: "null" }),
      await postForm(resolvePath, { ...fields, csrf }, cookie, { "sec-fetch-site": "cross-site", origin: "" }),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.text()).toContain("Request refused");
    }
    // Without a session at all, the form leads to the login page.
    expect((await postForm(resolvePath, { ...fields, csrf }, null)).status).toBe(303);
    await expectStillInReview();
  });

  it("requires a note, and shows a confirmation before anything moves", async () => {
    const missing = await postForm(resolvePath, { csrf, outcome: "not_sent", note: "   " }, cookie);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("A note is required");
    const confirm = await postForm(resolvePath, { csrf, outcome: "not_sent", note: "PSP statement: nothing left" }, cookie);
    expect(confirm.status).toBe(200);
    const html = await confirm.text();
    expect(html).toContain("<h1>Confirm the resolution</h1>");
    expect(html).toContain("R$ 43,21 goes back to account");
    expect(html).toContain('name="confirm" value="yes"');
    await expectStillInReview();
  });

  it("refuses sent from a token login with 403: the shared OPS_TOKEN names no person", async () => {
    const response = await postForm(resolvePath, { csrf, outcome: "sent", note: "the PSP paid it", confirm: "yes" }, cookie);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("needs a person: sign in through Cloudflare Access");
    await expectStillInReview();
  });

  it("on confirmation releases the hold and shows the result with the note in the timeline", async () => {
    const response = await postForm(
      resolvePath,
      { csrf, outcome: "not_sent", note: "PSP statement: nothing left", confirm: "yes" },
      cookie,
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/console/transfers/${transferId}?resolved=1`);
    const html = await (await getPage(response.headers.get("location") ?? "", cookie)).text();
    expect(html).toContain("Resolved: the transfer is now compensated.");
    expect(html).toContain("operator: PSP statement: nothing left");
    expect(html).toContain("<strong>released</strong>");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000, held_cents: 0, available_cents: 10_000 });
    expect(await (await getPage("/console/queue", cookie)).text()).not.toContain(transferId);
  });

  it("refuses a second resolution with 409 and changes nothing", async () => {
    const again = await postForm(resolvePath, { csrf, outcome: "sent", note: "second thoughts", confirm: "yes" }, cookie);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Only a transfer in needs_review can be resolved; this one is compensated.");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000, held_cents: 0 });
  });
});
