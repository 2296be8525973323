// The HTTP adapter against the sandbox, one magic key at a time: what the saga will see from a
// send and from a status check, and what the sandbox says really happened.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainSandboxWebhooks, endToEndIdPattern, orderFor, sandboxAdapter, sandboxEnv, sandboxView } from "./support.ts";

/**
 * The slow keys' sends meet a caller that reads the sandbox's PROVIDER_TIMEOUT_MS, as in
 * production: it gives up after 1 s, and they answer after 1.5 s. Every other call takes a
 * patient caller, so a loaded machine never turns a prompt answer into a timeout. Payments
 * settle at once (SANDBOX_CONFIRM_MS 0).
 */
const timeoutMs = 1_000;
const patientTimeoutMs = 10_000;
const fastEnv = sandboxEnv({ PROVIDER_TIMEOUT_MS: String(timeoutMs), SANDBOX_CONFIRM_MS: "0" });
const provider = sandboxAdapter(fastEnv, { timeoutMs: patientTimeoutMs });
const impatient = sandboxAdapter(fastEnv, { timeoutMs });

// The first call pays for starting the sandbox's Durable Object; keep that out of the timed tests.
beforeAll(() => provider.status(orderFor("warm-up@example.com")));
afterAll(drainSandboxWebhooks);

async function viewOf(idempotencyKey: string): Promise<Record<string, unknown>> {
  const response = await sandboxView(fastEnv, idempotencyKey);
  expect(response.status).toBe(200);
  return response.json();
}

describe("HTTP adapter against the sandbox", () => {
  it("accepts a happy-path send and reports it confirmed with the same end-to-end id", async () => {
    const order = orderFor("ana@example.com");
    const sent = await provider.send(order);
    expect(sent).toMatchObject({ kind: "accepted", status: "processing", evidence: { httpStatus: 201, error: null } });
    const endToEndId = sent.kind === "accepted" ? sent.endToEndId : null;
    expect(endToEndId).toMatch(endToEndIdPattern);
    expect(await provider.status(order)).toMatchObject({ kind: "confirmed", endToEndId });
    expect(await viewOf(order.idempotencyKey)).toEqual({
      idempotency_key: order.idempotencyKey,
      send_calls: 1,
      status_calls: 1,
      made: true,
      status: "confirmed",
      end_to_end_id: endToEndId,
    });
  });

  it("keeps a payment processing until SANDBOX_CONFIRM_MS has passed", async () => {
    const slowConfirm = sandboxAdapter(sandboxEnv({ SANDBOX_CONFIRM_MS: "60000" }), { timeoutMs: patientTimeoutMs });
    const order = orderFor("bruno@example.com");
    await slowConfirm.send(order);
    expect(await slowConfirm.status(order)).toMatchObject({ kind: "processing" });
  });

  it("rejects reject@sandbox.test at once with invalid_key and makes nothing", async () => {
    const order = orderFor("reject@sandbox.test");
    expect(await provider.send(order)).toMatchObject({ kind: "rejected", code: "invalid_key", evidence: { httpStatus: 422 } });
    expect(await provider.status(order)).toMatchObject({ kind: "rejected", code: "invalid_key" });
    expect(await viewOf(order.idempotencyKey)).toMatchObject({ made: false, status: "rejected", end_to_end_id: null });
  });

  it("accepts late-reject@sandbox.test and then reports it rejected, with no money moved", async () => {
    const order = orderFor("late-reject@sandbox.test");
    expect(await provider.send(order)).toMatchObject({ kind: "accepted", status: "processing" });
    expect(await provider.status(order)).toMatchObject({ kind: "rejected", code: "beneficiary_refused" });
    expect(await viewOf(order.idempotencyKey)).toMatchObject({ made: false, status: "rejected" });
  });

  it("times out on timeout-sent@sandbox.test although the Pix was made, and status finds it confirmed", async () => {
    const order = orderFor("timeout-sent@sandbox.test");
    const sent = await impatient.send(order);
    expect(sent).toMatchObject({ kind: "unknown", why: "timeout", evidence: { httpStatus: null, error: `timeout after ${timeoutMs} ms` } });
    expect(sent.evidence.durationMs).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(await provider.status(order)).toMatchObject({ kind: "confirmed" });
    expect(await viewOf(order.idempotencyKey)).toMatchObject({ made: true, send_calls: 1 });
  });

  it("answers timeout-sent@sandbox.test after the caller's timeout, so a patient caller sees it accepted", async () => {
    const sent = await provider.send(orderFor("timeout-sent@sandbox.test"));
    expect(sent).toMatchObject({ kind: "accepted", status: "processing" });
    expect(sent.evidence.durationMs).toBeGreaterThanOrEqual(timeoutMs + 450);
  });

  it("times out on timeout-lost@sandbox.test and status says not found: nothing was made", async () => {
    const order = orderFor("timeout-lost@sandbox.test");
    expect(await impatient.send(order)).toMatchObject({ kind: "unknown", why: "timeout" });
    expect(await provider.status(order)).toMatchObject({ kind: "not_found", evidence: { httpStatus: 404 } });
    expect(await viewOf(order.idempotencyKey)).toMatchObject({ made: false, status: "not_found", end_to_end_id: null, status_calls: 1 });
  });

  it("treats error-sent@sandbox.test's 500 as unknown, and status finds the Pix confirmed", async () => {
    const order = orderFor("error-sent@sandbox.test");
    expect(await provider.send(order)).toMatchObject({ kind: "unknown", why: "http_500", evidence: { httpStatus: 500 } });
    expect(await provider.status(order)).toMatchObject({ kind: "confirmed" });
    expect(await viewOf(order.idempotencyKey)).toMatchObject({ made: true });
  });

  it("keeps processing@sandbox.test processing however long it has been", async () => {
    const order = orderFor("processing@sandbox.test");
    expect(await provider.send(order)).toMatchObject({ kind: "accepted" });
    expect(await provider.status(order)).toMatchObject({ kind: "processing" });
    expect(await provider.status(order)).toMatchObject({ kind: "processing" });
    expect(await viewOf(order.idempotencyKey)).toMatchObject({ status: "processing", status_calls: 2 });
  });

  it("confirms silent@sandbox.test like the happy path", async () => {
    const order = orderFor("silent@sandbox.test");
    expect(await provider.send(order)).toMatchObject({ kind: "accepted" });
    expect(await provider.status(order)).toMatchObject({ kind: "confirmed" });
  });

  it("answers 503 to the first three status checks of flaky-status@sandbox.test, then confirmed", async () => {
    const order = orderFor("flaky-status@sandbox.test");
    await provider.send(order);
    for (let call = 1; call <= 3; call++) {
      expect(await provider.status(order)).toMatchObject({ kind: "unknown", why: "http_503" });
    }
    expect(await provider.status(order)).toMatchObject({ kind: "confirmed" });
    expect(await viewOf(order.idempotencyKey)).toMatchObject({ status_calls: 4 });
  });

  it("reports lying-webhook@sandbox.test confirmed by status, whatever its webhook claims", async () => {
    const order = orderFor("lying-webhook@sandbox.test");
    await provider.send(order);
    expect(await provider.status(order)).toMatchObject({ kind: "confirmed" });
  });

  it("answers a repeated send with the same payment and counts both calls", async () => {
    const order = orderFor("carla@example.com");
    const first = await provider.send(order);
    const again = await provider.send(order);
    expect(again).toMatchObject({ kind: "accepted", evidence: { httpStatus: 200 } });
    expect(again.kind === "accepted" && first.kind === "accepted" && again.endToEndId === first.endToEndId).toBe(true);
    expect(await viewOf(order.idempotencyKey)).toMatchObject({ send_calls: 2, made: true });
  });

  it("treats a repeat with another amount as unknown, never as a rejection", async () => {
    const order = orderFor("davi@example.com");
    await provider.send(order);
    const conflicting = await provider.send({ ...order, amountCents: 9999 });
    expect(conflicting).toMatchObject({ kind: "unknown", why: "http_409", evidence: { body: { code: "idempotency_conflict" } } });
  });

  it("says not found for a key the sandbox never saw", async () => {
    expect(await provider.status(orderFor("eva@example.com"))).toMatchObject({ kind: "not_found" });
  });

  it("is refused by a sandbox that requires PROVIDER_TOKEN when the token is wrong (unknown + alert), and served when right", async () => {
    const guarded = sandboxEnv({ PROVIDER_TOKEN: "s3cret", SANDBOX_CONFIRM_MS: "0" });
    const order = orderFor("fabio@example.com");
    const wrong = await sandboxAdapter(guarded, { timeoutMs: patientTimeoutMs, token: "nope" }).send(order);
    expect(wrong).toMatchObject({ kind: "unknown", alert: "credentials_refused", evidence: { httpStatus: 401 } });
    const right = await sandboxAdapter(guarded, { timeoutMs: patientTimeoutMs, token: "s3cret" }).send(order);
    expect(right).toMatchObject({ kind: "accepted" });
  });
});
