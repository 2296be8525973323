// Status codes, content types and bodies of every route through the whole Worker (CONTRACT §2,
// §3, §5), and what the edge answers on its own: 404 for unknown paths, 405 with Allow for a
// wrong method, 413 for bodies over 16 KiB, X-Request-Id on everything.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { balanceSchema, healthSchema, transferPageSchema, transferSchema, webhookAckSchema } from "../../src/contract/schemas.ts";
import { maxBodyBytes } from "../../src/http/body-limit.ts";
import { sandboxPaymentListSchema, sandboxPaymentSchema } from "../../src/http/sandbox-schemas.ts";
import worker from "../../src/worker.ts";
import {
  call,
  clientHeaders,
  createTransfer,
  fundedAccount,
  opsCall,
  opsHeaders,
  signedWebhook,
  waitForFinalState,
} from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { accountWithFinishedTransfer, expectJson, expectProblem, footprint, validTransfer } from "./helpers.ts";

const pool = filePool(2);

let accountId: string;
let transferId: string;

beforeAll(async () => {
  ({ accountId, transferId } = await accountWithFinishedTransfer());
});

describe("GET /healthz", () => {
  it("answers 200 {status: ok} when the database answers", async () => {
    const response = await call("/healthz");
    expect(await expectJson(response, 200, healthSchema)).toEqual({ status: "ok" });
  });

  it("answers 503 problem+json when the database does not", async () => {
    const ctx = createExecutionContext();
    const request = new Request("http://pix.test/healthz");
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    const response = await worker.fetch(request, { ...env, DATABASE_URL: "postgres://nobody:x@127.0.0.1:9/none" }, ctx);
    await waitOnExecutionContext(ctx);
    await expectProblem(response, 503, "unavailable");
  });
});

describe("client routes", () => {
  it("POST /v1/transfers answers 202 with the transfer resource", async () => {
    const other = await fundedAccount(100_000);
    const response = await createTransfer(other, { ...validTransfer, pix_key: "100.000.001-08" });
    const transfer = await expectJson(response, 202, transferSchema);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(transfer).toMatchObject({
      amount_cents: validTransfer.amount_cents,
      pix_key: "10000000108",
      pix_key_type: "cpf",
      description: "aluguel",
      failure_reason: null,
      failure_code: null,
    });
    expect(["funds_reserved", "submitted", "completed"]).toContain(transfer.state);
    expect(transfer.history[0]).toMatchObject({ state: "started", reason: null });
    await waitForFinalState(other, transfer.id);
  });

  it("POST /v1/transfers answers 202 compensated insufficient_funds above the balance", async () => {
    const poor = await fundedAccount(1_000);
    const transfer = await expectJson(await createTransfer(poor, { ...validTransfer, amount_cents: 1_001 }), 202, transferSchema);
    expect(transfer).toMatchObject({ state: "compensated", failure_reason: "insufficient_funds" });
  });

  it("GET /v1/transfers/:id answers 200 with the transfer and its whole history", async () => {
    const response = await call(`/v1/transfers/${transferId}`, { headers: await clientHeaders(accountId) });
    const transfer = await expectJson(response, 200, transferSchema);
    expect(transfer.id).toBe(transferId);
    expect(transfer.history.map((h) => h.state)).toEqual(["started", "funds_reserved", "submitted", "completed"]);
    expect(transfer.end_to_end_id).toMatch(/^E/);
  });

  it("GET /v1/transfers/:id answers 404 for a malformed id", async () => {
    await expectProblem(await call("/v1/transfers/not-a-uuid", { headers: await clientHeaders(accountId) }), 404, "not-found");
  });

  it("GET /v1/transfers answers 200 with a page", async () => {
    const page = await expectJson(await call("/v1/transfers", { headers: await clientHeaders(accountId) }), 200, transferPageSchema);
    expect(page.data.map((t) => t.id)).toEqual([transferId]);
    expect(page.next_cursor).toBeNull();
  });

  it("GET /v1/balance answers 200 with the balance", async () => {
    const balance = await expectJson(await call("/v1/balance", { headers: await clientHeaders(accountId) }), 200, balanceSchema);
    const left = 100_000 - validTransfer.amount_cents;
    expect(balance).toEqual({ account_id: accountId, balance_cents: left, held_cents: 0, available_cents: left });
  });
});

describe("account data is never cached", () => {
  it("answers Cache-Control: no-store on every client and operator read, and on their errors", async () => {
    const clientReads = ["/v1/balance", "/v1/limits", "/v1/transfers", `/v1/transfers/${transferId}`, "/v1/transfers/not-a-transfer"];
    for (const path of clientReads) {
      const response = await call(path, { headers: await clientHeaders(accountId) });
      expect(response.headers.get("cache-control"), path).toBe("no-store");
    }
    for (const path of [`/ops/transfers/${transferId}`, `/ops/transfers?account_id=${accountId}`, "/ops/reconciliation"]) {
      const response = await call(path, { headers: opsHeaders() });
      expect(response.headers.get("cache-control"), path).toBe("no-store");
    }
    expect((await call("/v1/balance")).headers.get("cache-control")).toBe("no-store");
  });
});

describe("webhooks and the sandbox", () => {
  it("POST /webhooks/provider answers 202 {received: true} when signed, 401 problem when not", async () => {
    const event = { type: "pix.payment.updated", data: { idempotency_key: transferId, end_to_end_id: null, status: "confirmed" } };
    expect(await expectJson(await signedWebhook(event), 202, webhookAckSchema)).toEqual({ received: true });
    const unsigned = await call("/webhooks/provider", { method: "POST", body: JSON.stringify(event) });
    await expectProblem(unsigned, 401, "unauthorized");
  });

  it("GET /sandbox/provider/payments[/:key] answer what the sandbox holds, 404 for a key it never saw", async () => {
    const list = await expectJson(await call("/sandbox/provider/payments"), 200, sandboxPaymentListSchema);
    expect(list.data.some((p) => p.idempotency_key === transferId)).toBe(true);
    const one = await expectJson(await call(`/sandbox/provider/payments/${transferId}`), 200, sandboxPaymentSchema);
    expect(one).toMatchObject({ idempotency_key: transferId, made: true, status: "confirmed" });
    await expectProblem(await call(`/sandbox/provider/payments/${crypto.randomUUID()}`), 404, "not-found");
  });
});

describe("what the edge answers on its own", () => {
  it.each([
    ["/nothing-here", {}],
    ["/v2/transfers", {}],
    ["/ops", { authorization: `Bearer ${env.OPS_TOKEN}` }],
    ["/ops/unknown", { authorization: `Bearer ${env.OPS_TOKEN}` }],
    ["/webhooks/other", {}],
  ])("answers 404 problem+json for the unknown path %s", async (path, headers) => {
    await expectProblem(await call(path, { headers }), 404, "not-found");
  });

  it("answers 404 for an unknown /v1 path once authenticated, 401 before", async () => {
    await expectProblem(await call("/v1/unknown", { headers: await clientHeaders(accountId) }), 404, "not-found");
    await expectProblem(await call("/v1/unknown"), 401, "unauthorized");
  });

  it.each([
    ["DELETE", "/v1/transfers", "client", ["GET", "HEAD", "POST"]],
    ["PUT", "/v1/transfers/:id", "client", ["GET", "HEAD"]],
    ["POST", "/v1/balance", "client", ["GET", "HEAD"]],
    ["GET", "/ops/sweep", "ops", ["POST"]],
    ["DELETE", "/ops/accounts/acct_1", "ops", ["PUT"]],
    ["GET", "/ops/accounts/acct_1/credits", "ops", ["POST"]],
    ["POST", "/ops/reconciliation", "ops", ["GET", "HEAD"]],
    ["GET", "/webhooks/provider", "none", ["POST"]],
    ["POST", "/healthz", "none", ["GET", "HEAD"]],
    ["POST", "/openapi.json", "none", ["GET", "HEAD"]],
    ["DELETE", "/docs", "none", ["GET", "HEAD"]],
  ] as const)("answers 405 with Allow to %s %s", async (method, path, auth, allowed) => {
    const headers = auth === "client" ? await clientHeaders(accountId) : auth === "ops" ? opsHeaders() : {};
    const response = await call(path.replace(":id", transferId), { method, headers });
    await expectProblem(response, 405, "method-not-allowed");
    const allow = (response.headers.get("allow") ?? "").split(",").map((m) => m.trim());
    expect(allow.sort()).toEqual([...allowed].sort());
  });

  it("answers 413 to a transfer body over 16 KiB, and writes nothing", async () => {
    const before = await footprint(pool, accountId);
    const body = JSON.stringify({ ...validTransfer, description: "d".repeat(maxBodyBytes) });
    const response = await call("/v1/transfers", {
      method: "POST",
      headers: await clientHeaders(accountId, { "idempotency-key": crypto.randomUUID() }),
      body,
    });
    await expectProblem(response, 413, "payload-too-large");
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it("answers 413 to an operator body over 16 KiB", async () => {
    const body = JSON.stringify({ amount_cents: 1, idempotency_key: "k".repeat(maxBodyBytes) });
    const response = await opsCall(`/ops/accounts/${accountId}/credits`, { method: "POST", body });
    await expectProblem(response, 413, "payload-too-large");
    expect((await footprint(pool, accountId)).ledgerTransactions).toBe(2);
  });

  it("carries X-Request-Id on every answer, and keeps a sane one the caller sent", async () => {
    const mine = await call("/healthz", { headers: { "x-request-id": "trace-123" } });
    expect(mine.headers.get("x-request-id")).toBe("trace-123");
    for (const response of [await call("/healthz"), await call("/nothing"), await call("/v1/balance"), await call("/openapi.json")]) {
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
