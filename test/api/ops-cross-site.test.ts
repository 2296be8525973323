// No request from another site acts on /ops/* (CONTRACT §5): behind Access the browser's cookie
// makes any page's request carry a valid assertion, so a write that a browser says came from
// another site, or whose body is not labelled JSON (what a form or a no-preflight fetch sends),
// is refused before anything is read or written. Machines send neither header and pass.
import { describe, expect, it } from "vitest";
import { personHeaders } from "../support/access.ts";
import { baseUrl, call, getBalance, opsCall, opsHeaders } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";
import { expectProblem } from "./helpers.ts";

async function account(): Promise<string> {
  const accountId = uniqueAccountId();
  expect((await opsCall(`/ops/accounts/${accountId}`, { method: "PUT" })).status).toBe(201);
  return accountId;
}

function credit(accountId: string, headers: Record<string, string>, body = '{"amount_cents":500,"idempotency_key":"k"}') {
  return call(`/ops/accounts/${accountId}/credits`, { method: "POST", headers, body });
}

describe("/ops/* writes from another site", () => {
  it.each([
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["Origin: null", { origin: "null" }],
    ["our origin over another scheme", { origin: baseUrl.replace("http:", "https:") }],
    ["a same-origin claim with a foreign Origin", { "sec-fetch-site": "same-origin", origin: "https://evil.example" }],
  ])("refuses %s with 403 and credits nothing, even for a signed-in person", async (_label, extra) => {
    const accountId = await account();
    const response = await credit(accountId, await personHeaders("ana@fintech.example", extra));
    await expectProblem(response, 403, "forbidden");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 0 });
  });

  it("refuses an account creation and an approval without a body from another site", async () => {
    const accountId = uniqueAccountId();
    const headers = await personHeaders("ana@fintech.example", { "sec-fetch-site": "cross-site" });
    await expectProblem(await call(`/ops/accounts/${accountId}`, { method: "PUT", headers }), 403, "forbidden");
    await expectProblem(await call(`/ops/credits/${crypto.randomUUID()}/approve`, { method: "POST", headers }), 403, "forbidden");
    expect((await opsCall(`/ops/accounts/${accountId}`, { method: "PUT" })).status).toBe(201);
  });

  it.each([
    ["Sec-Fetch-Site: same-origin (the Worker's own page)", { "sec-fetch-site": "same-origin", origin: baseUrl }],
    ["Sec-Fetch-Site: none (typed by the person)", { "sec-fetch-site": "none" }],
    ["the Worker's own Origin", { origin: baseUrl }],
    ["neither header (a machine)", {}],
  ])("lets %s act", async (_label, extra) => {
    const accountId = await account();
    expect((await credit(accountId, await personHeaders("ana@fintech.example", extra))).status).toBe(200);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 500 });
  });

  it("leaves reads open: a GET from another site answers (no CORS header lets that site read it)", async () => {
    const response = await call("/ops/reconciliation", { headers: opsHeaders({ "sec-fetch-site": "cross-site" }) });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("/ops/* writes whose body is not labelled JSON", () => {
  it.each([
    ["no Content-Type", null],
    ["text/plain (a no-preflight fetch)", "text/plain;charset=UTF-8"],
    ["a form", "application/x-www-form-urlencoded"],
    ["multipart", "multipart/form-data; boundary=x"],
    ["a JSON look-alike", "application/jsonx"],
  ])("refuses %s with 415 and credits nothing", async (_label, contentType) => {
    const accountId = await account();
    const headers: Record<string, string> = { authorization: opsHeaders().authorization ?? "" };
    if (contentType !== null) headers["content-type"] = contentType;
    await expectProblem(await credit(accountId, headers), 415, "unsupported-media-type");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 0 });
  });

  it("takes application/json with parameters and in any case", async () => {
    const accountId = await account();
    expect((await credit(accountId, opsHeaders({ "content-type": "Application/JSON; charset=utf-8" }))).status).toBe(200);
  });

  it.each([
    ["no Content-Type", null],
    ["text/plain", "text/plain;charset=UTF-8"],
  ])("answers a write without credentials and with %s 401, as any failed sign-in", async (_label, contentType) => {
    const accountId = uniqueAccountId();
    const headers: Record<string, string> = contentType === null ? {} : { "content-type": contentType };
    const response = await call(`/ops/accounts/${accountId}`, { method: "PUT", headers, body: "{}" });
    await expectProblem(response, 401, "unauthorized");
    expect((await opsCall(`/ops/accounts/${accountId}`, { method: "PUT" })).status).toBe(201);
  });

  it("reads an empty chunked JSON body (no Content-Length) as {}", async () => {
    const accountId = await account();
    const empty = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
    const response = await call(`/ops/accounts/${accountId}/limits`, { method: "PUT", headers: opsHeaders(), body: empty });
    expect(response.status).toBe(200);
  });

  it("reads an empty JSON body as {}", async () => {
    const accountId = uniqueAccountId();
    expect((await opsCall(`/ops/accounts/${accountId}`, { method: "PUT" })).status).toBe(201);
    // Every limit optional: {} is "all defaults", so an empty body sets them.
    expect((await opsCall(`/ops/accounts/${accountId}/limits`, { method: "PUT", body: "" })).status).toBe(200);
    expect((await opsCall(`/ops/accounts/${accountId}/limits`, { method: "PUT" })).status).toBe(200);
    // A body that needs fields names them, as for {}.
    const missing = await expectProblem(await credit(accountId, opsHeaders(), ""), 400, "validation-failed");
    expect(missing.errors?.map((e) => e.field)).toEqual(expect.arrayContaining(["amount_cents", "idempotency_key"]));
  });
});
