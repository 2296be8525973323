// Fails closed (CONTRACT §1): the whole Worker (its fetch handler, in workerd) under each
// misconfiguration answers 503 `misconfigured` on every route, /healthz names the problem, and
// the saga objects and the sweeper touch neither the provider nor the ledger. The Worker's own
// bindings cannot change per test, so the handler is called with a production-like env object.
import { createExecutionContext, env, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app.ts";
import { openApiDocument } from "../../src/http/openapi/document.ts";
import { misconfiguredRetryMs, TransferSaga } from "../../src/saga-object.ts";
import { sweep } from "../../src/sweeper.ts";
import worker from "../../src/worker.ts";
import { clientToken, fundedAccount, sandboxPayment } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { ledgerFootprint, openDefaults, openWithoutObject } from "../support/saga.ts";
import { misconfigurations, productionEnv } from "./production-env.ts";

const pool = filePool(2);

/** Every documented route (the sandbox's included), the console, and a path nobody serves. */
async function routesToTry(): Promise<{ method: string; path: string }[]> {
  const document = await openApiDocument(app, { sandboxEnabled: true, maxTransferCents: 1 }, "http://localhost");
  return [
    ...Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations ?? {}).map((method) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000"),
      })),
    ),
    { method: "GET", path: "/console" },
    { method: "GET", path: "/console/login" },
    { method: "POST", path: "/console/login" },
    { method: "GET", path: "/nothing-here" },
  ].filter((route) => route.path !== "/healthz");
}

async function fetchWith(testEnv: Env, method: string, path: string, headers: Record<string, string> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const body = method === "GET" || method === "HEAD" ? undefined : "{}";
  const response = await worker.fetch(new Request(`http://pix.test${path}`, { method, headers, body }), testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("a misconfigured Worker", () => {
  it("has routes to try: every documented one", async () => {
    expect((await routesToTry()).length).toBeGreaterThan(15);
  });

  it.each(misconfigurations)(
    "with $name: every route answers 503 misconfigured and /healthz names $variable",
    async ({ env: bad, variable }) => {
      for (const { method, path } of await routesToTry()) {
        const response = await fetchWith(bad, method, path, { authorization: `Bearer ${bad.OPS_TOKEN ?? "x"}` });
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 503 });
        expect(response.headers.get("content-type")).toBe("application/problem+json");
        expect(((await response.json()) as { type: string }).type).toMatch(/\/misconfigured$/);
      }
      const health = await fetchWith(bad, "GET", "/healthz");
      expect(health.status).toBe(503);
      const body = (await health.json()) as { type: string; detail: string; errors: { field: string }[] };
      expect(body.type).toMatch(/\/misconfigured$/);
      expect(body.errors.map((e) => e.field)).toContain(variable);
    },
  );

  it("keeps its saga objects from the provider and the ledger: poke, resolve and alarm do nothing but wait", async () => {
    const [bad] = misconfigurations;
    if (bad === undefined) throw new Error("no misconfiguration to try");
    const accountId = await fundedAccount(10_000);
    // A transfer whose hold committed and whose send is due: exactly what an alarm would send.
    const saga = await openWithoutObject(pool, accountId, 2_500);
    const before = await ledgerFootprint(pool, saga.id);
    const stub = env.TRANSFER_SAGA.getByName(saga.id);
    await runInDurableObject(stub, async (_instance, state) => {
      const shell = new TransferSaga(state, bad.env);
      expect(await shell.poke("sweeper")).toEqual({ state: null });
      expect(await shell.resolve("sent", "note", "ops-token")).toEqual({ outcome: "unavailable" });
      const startedAtMs = Date.now();
      await shell.alarm();
      const alarmAtMs = await state.storage.getAlarm();
      expect(alarmAtMs).toBeGreaterThanOrEqual(startedAtMs + misconfiguredRetryMs);
      expect(await state.storage.get("saga")).toBeUndefined();
      await state.storage.deleteAlarm();
    });
    expect(await ledgerFootprint(pool, saga.id)).toEqual(before);
    expect(await sandboxPayment(saga.id)).toBeNull();
  });

  it("with EVENTS_SECRET a WEBHOOK_SECRET key, a saga object refuses start before writing: no hold is left unarmed", async () => {
    const reuse = misconfigurations.find((m) => m.name.startsWith("EVENTS_SECRET that is a WEBHOOK_SECRET key"));
    if (reuse === undefined) throw new Error("no EVENTS_SECRET reuse row");
    const accountId = await fundedAccount(10_000);
    const id = crypto.randomUUID();
    const started = await runInDurableObject(env.TRANSFER_SAGA.getByName(id), (_instance, state) =>
      new TransferSaga(state, reuse.env).start({
        id,
        accountId,
        amountCents: 2_500,
        pixKey: "10000000108",
        pixKeyType: "cpf",
        description: null,
        idempotencyKey: crypto.randomUUID(),
        requestFingerprint: "test",
        deadlineMs: 60_000,
        ...openDefaults(),
      }),
    );
    expect(started).toEqual({ outcome: "unavailable" });
    expect(await ledgerFootprint(pool, id)).toEqual({ holdStatus: null, settleTransactions: 0, entries: 0, history: [] });
    expect(await sweep(reuse.env, { waitUntil: () => undefined })).toEqual({ poked: 0 });
  });

  it("keeps the sweeper from reading or poking anything", async () => {
    const [bad] = misconfigurations;
    if (bad === undefined) throw new Error("no misconfiguration to try");
    expect(await sweep(bad.env, { waitUntil: () => undefined })).toEqual({ poked: 0 });
  });
});

describe("a complete production configuration (the sandbox off, PROVIDER=http, HS256)", () => {
  const production = productionEnv();

  it("serves: /healthz is 200 on the local database and a client with a valid token gets its answer", async () => {
    expect((await fetchWith(production, "GET", "/healthz")).status).toBe(200);
    const accountId = await fundedAccount(10_000);
    const token = await clientToken(accountId, 600, production.JWT_SECRET);
    const balance = await fetchWith(production, "GET", "/v1/balance", { authorization: `Bearer ${token}` });
    expect(balance.status).toBe(200);
  });

  it("hides the sandbox: /sandbox paths are 404", async () => {
    expect((await fetchWith(production, "GET", "/sandbox/provider/payments")).status).toBe(404);
  });
});
