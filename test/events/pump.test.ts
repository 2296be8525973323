// The pump's decisions against the real outbox, with the receiver and the clock injected: a
// receiver refusing for three days parks the event, and the transfer's later events wait
// behind it; operators see it first in GET /ops/events.
import { describe, expect, it } from "vitest";
import { opsEventListSchema } from "../../src/contract/ops-schemas.ts";
import { pumpEvents } from "../../src/events/pump.ts";
import { eventDeliveryWindowMs } from "../../src/events/retry.ts";
import { opsCall } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { ledgerAccount, openWithoutObject } from "../support/saga.ts";

const pool = filePool(2);

const secret = "whsec_dGVzdC1ldmVudHMtc2VjcmV0LTAxMjM0NTY3ODk=";

describe("the event pump", () => {
  it("parks an event still refused three days on, sends nothing after it, and shows it to operators first", async () => {
    const saga = await openWithoutObject(pool, await ledgerAccount(pool, 10_000), 1_000);
    const sent: number[] = [];
    const refusing = async (request: Request) => {
      sent.push((await request.json<{ sequence: number }>()).sequence);
      return new Response("down for maintenance", { status: 503 });
    };
    const ports = { db: pool, url: "https://receiver.test/events", secret, retryFirstMs: 1_000, fetcher: refusing };
    const first = await pumpEvents({ ...ports, nowMs: () => Date.now() }, saga.id);
    expect(first).toMatchObject({ delivered: 0, parkedEventId: null });
    expect(first.nextDueAtMs).toBeGreaterThan(Date.now());
    const threeDaysOn = Date.now() + eventDeliveryWindowMs + 1;
    const parked = await pumpEvents({ ...ports, nowMs: () => threeDaysOn }, saga.id);
    expect(parked).toMatchObject({ delivered: 0, nextDueAtMs: null });
    expect(parked.parkedEventId).toMatch(/^evt_/);
    // Nothing more is sent for this transfer, however often it is woken: event 2 waits behind 1.
    expect(await pumpEvents({ ...ports, nowMs: () => threeDaysOn }, saga.id)).toEqual({
      delivered: 0,
      nextDueAtMs: null,
      parkedEventId: null,
    });
    expect(sent).toEqual([1, 1]);
    const listed = opsEventListSchema.parse(await (await opsCall(`/ops/events?transfer_id=${saga.id}`)).json());
    expect(listed.data.map((e) => [e.sequence, e.status, e.attempts.length])).toEqual([
      [1, "parked", 2],
      [2, "pending", 0],
    ]);
    const undelivered = opsEventListSchema.parse(await (await opsCall("/ops/events")).json());
    expect(undelivered.data[0]?.status).toBe("parked");
  });
});
