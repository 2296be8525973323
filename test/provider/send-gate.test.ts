// The SendGate Durable Object on its own: at most `limit` leases, waiters served first come
// first served, a lease its holder never releases taken back when it expires, a bounded wait.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AcquireResult, SendGate } from "../../src/provider/send-gate/gate-object.ts";

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
});
