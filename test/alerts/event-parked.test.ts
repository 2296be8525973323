// An outbound event refused for three days is parked, and a person must be told: the pump's
// parked event reaches the operators' alert receiver as a signed transfer.event_parked alert.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { noticeEventParked } from "../../src/alerts/event-parked.ts";
import { pumpEvents } from "../../src/events/pump.ts";
import { eventDeliveryWindowMs } from "../../src/events/retry.ts";
import { verifyWebhook } from "../../src/lib/webhook-signature.ts";
import { fundedAccount } from "../support/api.ts";
import { alertReceiver, captureLogs } from "../support/logs.ts";
import { filePool } from "../support/pool-test.ts";
import { openWithoutObject } from "../support/saga.ts";

const pool = filePool(2);
afterEach(() => vi.restoreAllMocks());

const eventsSecret = "whsec_dGVzdC1ldmVudHMtc2VjcmV0LTAxMjM0NTY3ODk=";

describe("a parked event is alerted", () => {
  it("POSTs transfer.event_parked, signed with OPS_ALERT_SECRET, to OPS_ALERT_URL when the pump parks an event", async () => {
    const lines = captureLogs();
    const saga = await openWithoutObject(pool, await fundedAccount(10_000), 1_000);
    const refusing = async () => new Response("down for maintenance", { status: 503 });
    const ports = {
      db: pool,
      url: "https://receiver.test/events",
      secret: eventsSecret,
      retryFirstMs: 1_000,
      fetcher: refusing,
    };
    await pumpEvents({ ...ports, nowMs: () => Date.now() }, saga.id);
    const parked = await pumpEvents({ ...ports, nowMs: () => Date.now() + eventDeliveryWindowMs + 1 }, saga.id);
    if (parked.parkedEventId === null) throw new Error("the event was not parked");

    const receiver = alertReceiver();
    noticeEventParked({ ...env, OPS_ALERT_URL: "https://alerts.example/hook" }, receiver.runtime, saga.id, parked.parkedEventId);
    await receiver.settled();

    expect(receiver.received).toHaveLength(1);
    const alert = receiver.received[0] as Request;
    expect(alert.url).toBe("https://alerts.example/hook");
    expect(alert.headers.get("webhook-id")).toBe(`alert_event_parked_${parked.parkedEventId}`);
    const rawBody = new Uint8Array(await alert.arrayBuffer());
    const verified = await verifyWebhook({ secrets: env.OPS_ALERT_SECRET, headers: alert.headers, rawBody, nowSeconds: Date.now() / 1000 });
    expect(verified).toEqual({ ok: true });
    expect(JSON.parse(new TextDecoder().decode(rawBody))).toMatchObject({
      type: "transfer.event_parked",
      data: { transfer_id: saga.id, event_id: parked.parkedEventId },
    });
    expect(lines.map((line) => JSON.parse(line))).toEqual(
      expect.arrayContaining([
        { event: "transfer_event_parked", transfer_id: saga.id, event_id: parked.parkedEventId },
        expect.objectContaining({ event: "ops_alert_delivered", transfer_id: saga.id, event_id: parked.parkedEventId, attempts: 1 }),
      ]),
    );
  });
});
