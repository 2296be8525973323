// The StreamSlots Durable Object on its own (one per account): at most `limit` leases, a full
// answer that says when the oldest stream will have ended, a lease its holder stops renewing
// (an object restarted, an isolate crashed) taken back, renewals that keep a live one, and the
// count surviving a restart of the slots' own object.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SlotResult, StreamSlots } from "../../src/saga-runtime/stream-slots-object.ts";

const bounds = { limit: 2, leaseMs: 60_000, lifetimeMs: 300_000 };

function slots() {
  return env.STREAM_SLOTS.getByName(`test-${crypto.randomUUID()}`);
}

function leaseOf(result: SlotResult): string {
  if (result.outcome !== "granted") throw new Error("expected a lease");
  return result.leaseId;
}

type Leases = Map<string, { expiresAtMs: number; endsAtMs: number }> | null;

/** What the object holds in memory, to make a lease lapse without waiting for it. */
function leasesOf(instance: StreamSlots): { leases: Leases } {
  return instance as unknown as { leases: Leases };
}

describe("StreamSlots", () => {
  it("grants up to the limit, then answers full with the time until the oldest stream's lifetime ends", async () => {
    const s = slots();
    const first = leaseOf(await s.acquire(bounds));
    leaseOf(await s.acquire(bounds));
    const full = await s.acquire(bounds);
    if (full.outcome !== "full") throw new Error("expected full");
    expect(full.retryAfterMs).toBeGreaterThan(0);
    expect(full.retryAfterMs).toBeLessThanOrEqual(bounds.lifetimeMs);
    expect(await s.release(first)).toEqual({ released: true });
    expect((await s.acquire(bounds)).outcome).toBe("granted");
    expect(await s.held()).toBe(2);
  });

  it("takes back a lease its holder stopped renewing, and keeps one that is renewed", async () => {
    const s = slots();
    // The first holder died with its stream (an object restart): nobody renews its lease.
    const dead = leaseOf(await s.acquire(bounds));
    const live = leaseOf(await s.acquire(bounds));
    expect(await s.renew(live, bounds.leaseMs)).toBe(true);
    await runInDurableObject(s, (instance: StreamSlots) => {
      const lease = leasesOf(instance).leases?.get(dead);
      if (lease === undefined) throw new Error("no such lease");
      lease.expiresAtMs = Date.now() - 1;
    });
    expect((await s.acquire(bounds)).outcome).toBe("granted");
    expect(await s.held()).toBe(2);
    // A lapsed lease cannot be renewed: its stream must end, it no longer counts.
    expect(await s.renew(dead, bounds.leaseMs)).toBe(false);
    expect(await s.release(dead)).toEqual({ released: false });
  });

  it("still counts its holders after its own object restarts (the leases are stored)", async () => {
    const s = slots();
    leaseOf(await s.acquire({ ...bounds, limit: 1 }));
    await runInDurableObject(s, (instance: StreamSlots) => {
      leasesOf(instance).leases = null;
    });
    expect((await s.acquire({ ...bounds, limit: 1 })).outcome).toBe("full");
    expect(await s.held()).toBe(1);
  });
});
