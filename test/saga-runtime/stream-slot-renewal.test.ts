// A live stream keeps its account's slot by renewing it with each keep-alive, and ends when it
// cannot: its lease is gone (lapsed, so the account's count no longer sees it), or renewals
// failed so long that the lease may lapse before the next try. Either way the slot is given
// back and the client reconnects. The keep-alive's interval is driven by fake timers.
import { afterEach, describe, expect, it, vi } from "vitest";
import { EventStreams, streamKeepaliveMs, streamSlotLeaseMs } from "../../src/saga-runtime/event-stream.ts";
import type { AccountStreamSlots } from "../../src/saga-runtime/stream-slot.ts";
import { filePool } from "../support/pool-test.ts";
import { heldTransfer } from "../support/saga.ts";

const pool = filePool(2);
afterEach(() => vi.useRealTimers());

/** Slots whose renewals answer `renewal` every time; records what was given back. */
function slotsRenewing(renewal: () => Promise<boolean>): AccountStreamSlots & { released: string[] } {
  const released: string[] = [];
  return {
    released,
    acquire: async () => ({ outcome: "granted", leaseId: "lease-1" }),
    renew: renewal,
    release: async (leaseId) => void released.push(leaseId),
  };
}

/** Reads the stream to its end: the text it sent. */
async function readToEnd(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

async function openedStream(slots: AccountStreamSlots): Promise<ReadableStream<Uint8Array>> {
  const { id } = await heldTransfer(pool);
  const opened = await new EventStreams(id, (work) => work(pool)).open(null, slots);
  if (opened.outcome !== "opened") throw new Error(`stream not opened: ${opened.outcome}`);
  return opened.stream;
}

describe("a live stream's account slot", () => {
  it("ends the stream and gives the slot back when a renewal finds the lease gone", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const slots = slotsRenewing(async () => false);
    const stream = await openedStream(slots);
    const text = readToEnd(stream);
    await vi.advanceTimersByTimeAsync(streamKeepaliveMs);
    expect(await text).toContain(": keepalive");
    expect(slots.released).toEqual(["lease-1"]);
  });

  it("keeps the stream while renewals fail for a while, and ends it before its lease may lapse", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    const slots = slotsRenewing(() => Promise.reject(new Error("the slots' object did not answer")));
    const stream = await openedStream(slots);
    const text = readToEnd(stream);
    // The lease lasts three keep-alives: the first failed renewal leaves time for another try.
    await vi.advanceTimersByTimeAsync(streamKeepaliveMs);
    expect(slots.released).toEqual([]);
    await vi.advanceTimersByTimeAsync(streamSlotLeaseMs - 2 * streamKeepaliveMs);
    expect(await text).toContain(": keepalive");
    expect(slots.released).toEqual(["lease-1"]);
  });
});
