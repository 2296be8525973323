// The SendGate Durable Object on its own: at most `limit` leases, waiters served first come
// first served, a lease its holder never releases taken back when it expires, a bounded wait;
// and the send slot over it: a slot back when its send is answered, or shortly after a timeout.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AcquireResult, SendGate } from "../../src/provider/send-gate/gate-object.ts";
import { abandonedSendMarginMs } from "../../src/provider/send-gate/send-slot.ts";
import { sendSlotFor } from "../../src/provider/send-gate/slot.ts";

const long = { leaseMs: 60_000, waitMsMax: 10_000 };

function gate() {
  return env.SEND_GATE.getByName(`test-${crypto.randomUUID()}`);
}

function leaseOf(result: AcquireResult): string {
  if (result.outcome !== "granted") throw new Error("expected a lease");
  return result.leaseId;
}

describe("SendGate", () => {
  it("grants up to the limit, then queues; each release serves the oldest waiter", async () => {
    const g = gate();
    const first = leaseOf(await g.acquire({ limit: 2, ...long }));
    const second = leaseOf(await g.acquire({ limit: 2, ...long }));
    const served: string[] = [];
    const waiting = ["third", "fourth", "fifth"].map((name) =>
      g.acquire({ limit: 2, ...long }).then((result) => {
        served.push(name);
        return leaseOf(result);
      }),
    );
    expect(await g.held()).toBe(2);
    await g.release(first);
    const third = await waiting[0];
    expect(served).toEqual(["third"]);
    await g.release(second);
    await waiting[1];
    await g.release(third ?? "");
    await waiting[2];
    expect(served).toEqual(["third", "fourth", "fifth"]);
    expect(await g.held()).toBe(2);
  });

  it("takes back the lease of a holder that died mid-send, and serves the waiter", async () => {
    const g = gate();
    // This holder never releases: it stands for a saga object killed during its provider call.
    leaseOf(await g.acquire({ limit: 1, leaseMs: 200, waitMsMax: 10_000 }));
    const waiter = await g.acquire({ limit: 1, leaseMs: 60_000, waitMsMax: 10_000 });
    expect(waiter.outcome).toBe("granted");
    expect(await g.held()).toBe(1);
  });

  it("serves the queue when a new request finds the last lease expired before its timer fired", async () => {
    const g = gate();
    const dead = leaseOf(await g.acquire({ limit: 1, ...long }));
    const queued = g.acquire({ limit: 1, leaseMs: 60_000, waitMsMax: 5_000 });
    expect(await g.held()).toBe(1);
    // The holder died and its lease ran out, but the expiry timer has not fired yet (timers
    // can run late): the next acquire is the first to see the slot free.
    await runInDurableObject(g, (instance: SendGate) => {
      (instance as unknown as { leases: Map<string, number> }).leases.set(dead, Date.now() - 1);
    });
    const later = g.acquire({ limit: 1, leaseMs: 60_000, waitMsMax: 5_000 });
    // Served at once in arrival order, not left to answer busy when its wait ends.
    const first = leaseOf(await queued);
    await g.release(first);
    expect((await later).outcome).toBe("granted");
  });

  it("answers busy to a waiter after its bounded wait, and forgets it", async () => {
    const g = gate();
    const holder = leaseOf(await g.acquire({ limit: 1, ...long }));
    expect(await g.acquire({ limit: 1, leaseMs: 60_000, waitMsMax: 50 })).toEqual({ outcome: "busy" });
    await g.release(holder);
    expect(await g.held()).toBe(0);
    expect((await g.acquire({ limit: 1, ...long })).outcome).toBe("granted");
  });

  it("releasing an unknown or already expired lease changes nothing", async () => {
    const g = gate();
    expect(await g.release("no-such-lease")).toEqual({ released: false });
    expect(await g.held()).toBe(0);
  });

  it("gives a slot back a bounded time after its send was given up on, long before its lease ends", async () => {
    const g = gate();
    const abandoned = leaseOf(await g.acquire({ limit: 1, ...long }));
    const waiter = g.acquire({ limit: 1, leaseMs: 60_000, waitMsMax: 5_000 });
    expect(await g.releaseAfter(abandoned, 100)).toEqual({ scheduled: true });
    // Still counted right after: the provider may still be working on it.
    expect(await g.held()).toBe(1);
    // Served by the shortened expiry, not answered busy at the end of its wait (the lease is 60 s).
    expect((await waiter).outcome).toBe("granted");
  });

  it("releaseAfter of an unknown lease changes nothing", async () => {
    const g = gate();
    expect(await g.releaseAfter("no-such-lease", 100)).toEqual({ scheduled: false });
    expect(await g.held()).toBe(0);
  });
});

describe("sendSlotFor", () => {
  // Two at a time (the suite runs without a gate); a provider timeout long enough that the
  // lease alone would hold the slot far beyond each waiter's wait.
  const limit = 2;
  const gated: Env = { ...env, PROVIDER_SEND_CONCURRENCY: String(limit) };
  const timeoutMs = 60_000;

  it("gives the slot back as soon as the send is answered or fails", async () => {
    const g = gate();
    const slot = sendSlotFor(gated, timeoutMs, g);
    expect(await slot(async () => "answered")).toBe("answered");
    expect(await g.held()).toBe(0);
    await expect(slot(() => Promise.reject(new Error("reset")))).rejects.toThrow("reset");
    expect(await g.held()).toBe(0);
  });

  it("keeps a timed-out send's slot for the stated margin only, then serves the next send", async () => {
    const g = gate();
    const slot = sendSlotFor(gated, timeoutMs, g);
    const timedOut = { kind: "unknown", why: "timeout" } as const;
    // Both slots given up on: the provider may still be working on both.
    for (let n = 0; n < limit; n++)
      expect(
        await slot(
          async () => timedOut,
          (r) => r.why === "timeout",
        ),
      ).toBe(timedOut);
    expect(await g.held()).toBe(limit);
    // A waiter that would give up long before a lease (4 timeouts + 5 s) ends is served once the
    // margin has passed: the gate does not stand idle behind sends nobody waits for.
    const waiter = await g.acquire({ limit, leaseMs: 60_000, waitMsMax: abandonedSendMarginMs + 5_000 });
    expect(waiter.outcome).toBe("granted");
  });
});
