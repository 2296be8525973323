// StreamSlots: one Durable Object per account (`env.STREAM_SLOTS.getByName(accountId)`) counting
// its open GET /v1/transfers/:id/events streams (MAX_STREAMS_PER_ACCOUNT). The streams live in
// many transfers' objects; this one object per account is the single place where their count is
// exact: each call runs to completion before the next, so a slot is taken with no await between
// the check and the grant. A slot is a lease the holder renews while its stream lives and gives
// back when it ends; a holder that died (its object restarted, its isolate crashed) stops
// renewing, and its lease lapses, so no slot is held forever by a stream that is gone.
import { DurableObject } from "cloudflare:workers";

const leasesKey = "leases";

export interface SlotRequest {
  /** At most this many leases at once (MAX_STREAMS_PER_ACCOUNT). */
  limit: number;
  /** A lease not renewed within this is taken back. */
  leaseMs: number;
  /** The stream ends by then at the latest: what Retry-After is computed from. */
  lifetimeMs: number;
}

export type SlotResult =
  | { outcome: "granted"; leaseId: string }
  /** `retryAfterMs`: by then the oldest stream has reached its lifetime bound, so a slot is free. */
  | { outcome: "full"; retryAfterMs: number };

interface Lease {
  expiresAtMs: number;
  endsAtMs: number;
}

export class StreamSlots extends DurableObject<Env> {
  /** leaseId -> lease; kept in storage too, so a restarted object still counts its holders. */
  private leases: Map<string, Lease> | null = null;

  async acquire(request: SlotRequest): Promise<SlotResult> {
    const leases = await this.loaded();
    const nowMs = Date.now();
    this.expire(leases, nowMs);
    if (leases.size >= request.limit) {
      const oldestEndsAtMs = Math.min(...[...leases.values()].map((lease) => lease.endsAtMs));
      return { outcome: "full", retryAfterMs: Math.max(0, oldestEndsAtMs - nowMs) };
    }
    const leaseId = crypto.randomUUID();
    leases.set(leaseId, { expiresAtMs: nowMs + request.leaseMs, endsAtMs: nowMs + request.lifetimeMs });
    this.persist(leases);
    return { outcome: "granted", leaseId };
  }

  /** Extends a live lease; false when it is gone (lapsed or released): its stream holds no slot. */
  async renew(leaseId: string, leaseMs: number): Promise<boolean> {
    const leases = await this.loaded();
    this.expire(leases, Date.now());
    const lease = leases.get(leaseId);
    if (lease === undefined) return false;
    lease.expiresAtMs = Date.now() + leaseMs;
    this.persist(leases);
    return true;
  }

  async release(leaseId: string): Promise<{ released: boolean }> {
    const leases = await this.loaded();
    const released = leases.delete(leaseId);
    if (released) this.persist(leases);
    return { released };
  }

  /** For tests and operators: the leases held now. */
  async held(): Promise<number> {
    const leases = await this.loaded();
    this.expire(leases, Date.now());
    return leases.size;
  }

  private expire(leases: Map<string, Lease>, nowMs: number): void {
    let changed = false;
    for (const [leaseId, lease] of leases) {
      if (lease.expiresAtMs <= nowMs) changed = leases.delete(leaseId);
    }
    if (changed) this.persist(leases);
  }

  private async loaded(): Promise<Map<string, Lease>> {
    if (this.leases === null) {
      const stored = (await this.ctx.storage.get<Record<string, Lease>>(leasesKey)) ?? {};
      this.leases ??= new Map(Object.entries(stored));
    }
    return this.leases;
  }

  /** Not awaited: the output gate holds every answer until the write is durable. */
  private persist(leases: Map<string, Lease>): void {
    if (leases.size === 0) void this.ctx.storage.delete(leasesKey);
    else void this.ctx.storage.put(leasesKey, Object.fromEntries(leases));
  }
}
