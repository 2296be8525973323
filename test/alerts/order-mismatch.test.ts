// A send or status answer naming another amount or key than the order: the saga keeps it
// unknown (classify tests), and a person is told at once: a critical error line, and a signed
// provider.order_mismatch alert when OPS_ALERT_URL is set, routed there by the saga's ports.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { noticeOrderMismatch, orderMismatchEvent } from "../../src/alerts/order-mismatch.ts";
import { verifyWebhook } from "../../src/lib/webhook-signature.ts";
import { sagaPorts } from "../../src/saga-runtime/ports.ts";
import type { ProviderCallRecord } from "../../src/transfers/store.ts";
import { alertReceiver, captureLogs } from "../support/logs.ts";
import { filePool } from "../support/pool-test.ts";
import { submittedRecord } from "../support/saga.ts";

const pool = filePool(1);
afterEach(() => vi.restoreAllMocks());

const saga = submittedRecord({
  id: "7a1f0b8e-2c4a-4f7e-9b1d-3e6a8c0f2a10",
  accountId: "acct-mismatch",
  amountCents: 60_000,
  pixKey: "ana@example.com",
  checksMade: 0,
});
const paidMore: ProviderCallRecord = {
  kind: "status",
  outcome: "unknown:contradicts_order",
  httpStatus: 200,
  detail: { body: { valor: "650.00", status: "REALIZADO" }, error: null },
  durationMs: 30,
};

async function alertBodyOf(request: Request | undefined): Promise<unknown> {
  if (request === undefined) throw new Error("no alert sent");
  const rawBody = new Uint8Array(await request.arrayBuffer());
  const verified = await verifyWebhook({ secrets: env.OPS_ALERT_SECRET, headers: request.headers, rawBody, nowSeconds: Date.now() / 1000 });
  expect(verified).toEqual({ ok: true });
  return JSON.parse(new TextDecoder().decode(rawBody));
}

describe("noticeOrderMismatch", () => {
  it("logs one critical error line and sends nothing when OPS_ALERT_URL is unset", () => {
    const lines = captureLogs();
    const waitUntil = vi.fn();
    noticeOrderMismatch({ ...env, OPS_ALERT_URL: undefined }, { waitUntil }, saga, paidMore);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        event: orderMismatchEvent,
        transfer_id: saga.id,
        severity: "critical",
        provider_call: "status",
        http_status: 200,
        alert_url_set: false,
      },
    ]);
    expect(waitUntil).not.toHaveBeenCalled();
  });

  it("POSTs provider.order_mismatch, critical, with what was ordered and what the provider answered", async () => {
    captureLogs();
    const receiver = alertReceiver();
    noticeOrderMismatch({ ...env, OPS_ALERT_URL: "https://alerts.example/hook" }, receiver.runtime, saga, paidMore);
    await receiver.settled();
    expect(receiver.received[0]?.headers.get("webhook-id")).toBe(`alert_order_mismatch_${saga.id}_status`);
    expect(await alertBodyOf(receiver.received[0])).toMatchObject({
      type: "provider.order_mismatch",
      data: {
        severity: "critical",
        transfer_id: saga.id,
        ordered: { amount_cents: 60_000, pix_key_type: "email", br_code: false },
        provider_call: "status",
        detail: { body: { valor: "650.00" } },
      },
    });
  });
});

describe("the saga's ports", () => {
  it("route an order_mismatch answer to the critical alert, not to the misconfiguration one", async () => {
    captureLogs();
    const receiver = alertReceiver();
    const ports = sagaPorts({ ...env, OPS_ALERT_URL: "https://alerts.example/hook" }, receiver.runtime, pool);
    ports.alert?.(saga, "order_mismatch", paidMore);
    await receiver.settled();
    expect(await alertBodyOf(receiver.received[0])).toMatchObject({ type: "provider.order_mismatch" });
  });
});
