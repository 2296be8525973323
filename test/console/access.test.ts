// Behind Cloudflare Access the console opens with the person's assertion, no token login; the
// person's email is who acts. A bad assertion opens nothing, and failed logins are throttled.
import { describe, expect, it } from "vitest";
import { accessAssertion } from "../support/access.ts";
import { call, createTransfer, fundedAccount, type TransferJson, waitForFinalState } from "../support/api.ts";
import { csrfOf, postForm } from "./support.ts";

const asPerson = async (path: string, email = "bia@fintech.example") =>
  call(path, { headers: { "cf-access-jwt-assertion": await accessAssertion(email) }, redirect: "manual" });

describe("the console behind Cloudflare Access", () => {
  it("opens the console with an assertion and no cookie, and shows who is signed in", async () => {
    const response = await asPerson("/console");
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toBeNull();
    const html = await response.text();
    expect(html).toContain("bia@fintech.example");
    expect(csrfOf(html)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("sends a person at the login page straight to the console", async () => {
    const response = await asPerson("/console/login");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/console");
  });

  it("resolves a transfer as the person, whose name is on its story and on the audit page", async () => {
    const accountId = await fundedAccount(10_000);
    const created = await createTransfer(accountId, { amount_cents: 1_500, pix_key: "processing@sandbox.test", pix_key_type: "email" });
    const transferId = (await created.json<TransferJson>()).id;
    expect((await waitForFinalState(accountId, transferId)).state).toBe("needs_review");
    const email = `dani.${crypto.randomUUID().slice(0, 6)}@fintech.example`;
    const assertion = { "cf-access-jwt-assertion": await accessAssertion(email) };
    const home = await (await asPerson("/console", email)).text();
    const fields = { csrf: csrfOf(home), outcome: "not_sent", note: "PSP statement has nothing", confirm: "yes" };
    const resolved = await postForm(`/console/transfers/${transferId}/resolve`, fields, null, assertion);
    expect(resolved.status).toBe(303);
    const story = await (await asPerson(`/console/transfers/${transferId}`, email)).text();
    expect(story).toContain(`operator (${email})`);
    const auditPage = await (await asPerson(`/console/audit?actor=${encodeURIComponent(email)}`, email)).text();
    expect(auditPage).toContain("transfer_resolved");
    expect(auditPage).toContain(transferId);
  });

  it("refuses a forged assertion with 401 and opens nothing", async () => {
    const assertion = await accessAssertion("bia@fintech.example");
    const [header, payload] = assertion.split(".");
    const response = await call("/console", { headers: { "cf-access-jwt-assertion": `${header}.${payload}.AAAA` }, redirect: "manual" });
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("Review queue");
  });

  it("throttles failed token logins per source IP with 429 and Retry-After", async () => {
    const ip = "192.0.2.44";
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const response = await postForm("/console/login", { token: "not-the-token" }, null, { "cf-connecting-ip": ip });
      statuses.push(response.status);
      if (response.status === 429) expect(response.headers.get("retry-after")).toBe("60");
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const elsewhere = await postForm("/console/login", { token: "not-the-token" }, null, { "cf-connecting-ip": "192.0.2.45" });
    expect(elsewhere.status).toBe(401);
  });
});
