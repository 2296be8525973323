// The sandbox's webhooks: sent when a payment reaches its final status, through our own
// /webhooks/provider, signed, once; never for the silent keys; and lying when told to.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import { SandboxProvider, sandboxInstanceName } from "../../src/provider/sandbox/sandbox-object.ts";
import { nextAttemptAfterFailure, webhookAttemptsMax } from "../../src/provider/sandbox/webhook-delivery.ts";
import { drainSandboxWebhooks, orderFor, sandboxAdapter, sandboxEnv } from "./support.ts";

afterAll(drainSandboxWebhooks);

/** Settles a minute after acceptance, so only the test decides when webhooks are due. */
const confirmMs = 60_000;
const provider = sandboxAdapter(sandboxEnv({ SANDBOX_CONFIRM_MS: String(confirmMs) }), { timeoutMs: 5_000 });
const sandbox = env.SANDBOX.getByName(sandboxInstanceName);

async function deliveriesFor(idempotencyKey: string, nowMs: number) {
  const reports = await sandbox.deliverDueWebhooks(nowMs);
  return reports.filter((report) => report.idempotencyKey === idempotencyKey);
}

describe("sandbox webhooks", () => {
  it("sends one signed webhook when the payment settles, which our route accepts, and never again", async () => {
    const order = orderFor("ivo@example.com");
    await provider.send(order);
    expect(await deliveriesFor(order.idempotencyKey, Date.now())).toEqual([]);
    const settled = Date.now() + confirmMs + 1_000;
    const [delivery, ...others] = await deliveriesFor(order.idempotencyKey, settled);
    expect(others).toEqual([]);
    expect(delivery).toMatchObject({
      claimedStatus: "confirmed",
      delivered: true,
      httpStatus: 202,
      webhookId: expect.stringMatching(/^msg_/),
    });
    expect(await deliveriesFor(order.idempotencyKey, settled)).toEqual([]);
  });

  it("says rejected in the webhook of late-reject@sandbox.test", async () => {
    const order = orderFor("late-reject@sandbox.test");
    await provider.send(order);
    expect(await deliveriesFor(order.idempotencyKey, Date.now() + confirmMs + 1_000)).toMatchObject([
      { claimedStatus: "rejected", delivered: true },
    ]);
  });

  it("lies in the webhook of lying-webhook@sandbox.test while status says confirmed", async () => {
    const order = orderFor("lying-webhook@sandbox.test");
    await provider.send(order);
    expect(await deliveriesFor(order.idempotencyKey, Date.now() + confirmMs + 1_000)).toMatchObject([{ claimedStatus: "rejected" }]);
  });

  it("sends nothing for silent, processing, timeout-lost and reject keys", async () => {
    const orders = ["silent@sandbox.test", "processing@sandbox.test", "timeout-lost@sandbox.test", "reject@sandbox.test"].map((key) =>
      orderFor(key),
    );
    // timeout-lost answers after PROVIDER_TIMEOUT_MS + 500 ms; this caller waits for it.
    const quickLoss = sandboxAdapter(sandboxEnv({ SANDBOX_CONFIRM_MS: String(confirmMs), PROVIDER_TIMEOUT_MS: "50" }), {
      timeoutMs: 5_000,
    });
    for (const order of orders) await quickLoss.send(order);
    const reports = await sandbox.deliverDueWebhooks(Date.now() + confirmMs + 1_000);
    const keys = new Set(orders.map((order) => order.idempotencyKey));
    expect(reports.filter((report) => keys.has(report.idempotencyKey))).toEqual([]);
  });

  it("arms its alarm for the due webhook, so delivery needs no request", async () => {
    const order = orderFor("jane@example.com");
    await provider.send(order);
    const alarmAtMs = await runInDurableObject(sandbox, (_instance, state) => state.storage.getAlarm());
    expect(alarmAtMs).not.toBeNull();
    expect(alarmAtMs).toBeLessThanOrEqual(Date.now() + confirmMs);
  });

  it("retries a failed delivery with doubling waits, and gives up after a bounded number of attempts", () => {
    const nowMs = 1_000_000;
    expect(nextAttemptAfterFailure(1, nowMs)).toEqual({ state: "pending", dueAtMs: nowMs + 1_000 });
    expect(nextAttemptAfterFailure(2, nowMs)).toEqual({ state: "pending", dueAtMs: nowMs + 2_000 });
    expect(nextAttemptAfterFailure(webhookAttemptsMax - 1, nowMs)).toEqual({ state: "pending", dueAtMs: nowMs + 8_000 });
    expect(nextAttemptAfterFailure(webhookAttemptsMax, nowMs)).toEqual({ state: "abandoned" });
  });
});

describe("the sandbox's own webhook key", () => {
  const otherKey = `whsec_${btoa("another-sandbox-key-0123456789abcdef")}`;

  /** A sandbox shell under `shellEnv` on a spare instance: one settled payment, its webhook sent. */
  async function deliverOneUnder(shellEnv: Env) {
    const stub = env.SANDBOX.getByName(`sandbox-key-${crypto.randomUUID()}`);
    return runInDurableObject(stub, async (_instance, state) => {
      const shell = new SandboxProvider(state, shellEnv);
      const order = orderFor("ivo@example.com");
      await shell.send({ ...order, confirmMs: 0, providerTimeoutMs: 5_000, notFoundGraceMs: 1_200 });
      const reports = await shell.deliverDueWebhooks(Date.now() + 1_000);
      await state.storage.deleteAlarm();
      return reports;
    });
  }

  it("signs with SANDBOX_WEBHOOK_SECRET, not WEBHOOK_SECRET: our route refuses another key and accepts its own", async () => {
    expect(await deliverOneUnder({ ...env, SANDBOX_WEBHOOK_SECRET: otherKey })).toMatchObject([{ delivered: false, httpStatus: 401 }]);
    // WEBHOOK_SECRET empty in the sandbox's env: it was never what the sandbox signed with.
    expect(await deliverOneUnder({ ...env, WEBHOOK_SECRET: "" })).toMatchObject([{ delivered: true, httpStatus: 202 }]);
  });
});
