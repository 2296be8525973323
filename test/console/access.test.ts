// Behind Cloudflare Access the console opens with the person's assertion, no token login and no
// OPS_TOKEN needed; the person's email is who acts, and their forms' CSRF tokens are bound to
// their sign-in. A bad assertion opens nothing, and failed logins are throttled.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker.ts";
import { accessAssertion } from "../support/access.ts";
import { baseUrl, call, createTransfer, fundedAccount, type TransferJson, waitForFinalState } from "../support/api.ts";
import { finalStateAtDeadline } from "../support/deadline.ts";
import { csrfOf, postForm } from "./support.ts";

const asPerson = async (path: string, email = "bia@fintech.example") =>
  call(path, { headers: { "cf-access-jwt-assertion": await accessAssertion(email) }, redirect: "manual" });

/** A transfer the sandbox keeps processing until its deadline sends it to needs_review. */
async function transferInReview(): Promise<{ accountId: string; transferId: string }> {
  const accountId = await fundedAccount(10_000);
  const created = await createTransfer(accountId, { amount_cents: 1_500, pix_key: "processing@sandbox.test", pix_key_type: "email" });
  const transferId = (await created.json<TransferJson>()).id;
  expect((await finalStateAtDeadline(accountId, transferId)).state).toBe("needs_review");
  return { accountId, transferId };
}

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
    const { transferId } = await transferInReview();
    const email = `dani.${crypto.randomUUID().slice(0, 6)}@fintech.example`;
    // Access puts the same assertion on every request of one sign-in: the page and its form.
    const assertion = { "cf-access-jwt-assertion": await accessAssertion(email) };
    const home = await (await call("/console", { headers: assertion })).text();
    const fields = { csrf: csrfOf(home), outcome: "not_sent", note: "PSP statement has nothing", confirm: "yes" };
    const resolved = await postForm(`/console/transfers/${transferId}/resolve`, fields, null, assertion);
    expect(resolved.status).toBe(303);
    const story = await (await asPerson(`/console/transfers/${transferId}`, email)).text();
    expect(story).toContain(`operator (${email})`);
    const auditPage = await (await asPerson(`/console/audit?actor=${encodeURIComponent(email)}`, email)).text();
    expect(auditPage).toContain("transfer_resolved");
    expect(auditPage).toContain(transferId);
  });

  it("refuses a form whose CSRF token came from another sign-in of the same person", async () => {
    const earlier = await (await asPerson("/console")).text();
    const fields = { csrf: csrfOf(earlier), outcome: "not_sent", note: "an old tab", confirm: "yes" };
    const later = { "cf-access-jwt-assertion": await accessAssertion("bia@fintech.example") };
    const refused = await postForm(`/console/transfers/${crypto.randomUUID()}/resolve`, fields, null, later);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("CSRF");
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

describe("the console behind Cloudflare Access with OPS_TOKEN unset", () => {
  /** The Worker with the test bindings but no OPS_TOKEN: only Access lets operators in. */
  const accessOnly: Env = { ...env, OPS_TOKEN: undefined };

  async function fetchAccessOnly(path: string, init: RequestInit = {}): Promise<Response> {
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(`${baseUrl}${path}`, { redirect: "manual", ...init }), accessOnly, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  }

  it("opens for a person and takes their decision: the CSRF key needs no OPS_TOKEN", async () => {
    const { accountId, transferId } = await transferInReview();
    const email = `eva.${crypto.randomUUID().slice(0, 6)}@fintech.example`;
    const assertion = { "cf-access-jwt-assertion": await accessAssertion(email) };
    const home = await fetchAccessOnly("/console", { headers: assertion });
    expect(home.status).toBe(200);
    const fields = { csrf: csrfOf(await home.text()), outcome: "not_sent", note: "PSP statement has nothing", confirm: "yes" };
    const resolved = await fetchAccessOnly(`/console/transfers/${transferId}/resolve`, {
      method: "POST",
      headers: { ...assertion, "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
      body: new URLSearchParams(fields).toString(),
    });
    expect(resolved.status).toBe(303);
    expect(await waitForFinalState(accountId, transferId)).toMatchObject({ state: "compensated", failure_reason: "not_sent" });
    const story = await (await fetchAccessOnly(`/console/transfers/${transferId}`, { headers: assertion })).text();
    expect(story).toContain(`operator (${email})`);
  });

  it("sends anyone without an assertion to Access: no token login, 401, nothing opened", async () => {
    const page = await fetchAccessOnly("/console");
    expect(page.status).toBe(401);
    expect(await page.text()).toContain("Cloudflare Access");
    expect((await fetchAccessOnly("/console/login")).status).toBe(401);
    const login = await fetchAccessOnly("/console/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
      body: new URLSearchParams({ token: "" }).toString(),
    });
    expect(login.status).toBe(401);
    expect(login.headers.get("set-cookie")).toBeNull();
  });
});
