// SendGate: one Durable Object (`env.SEND_GATE.getByName("provider")`) counting the sends in
// flight at the provider across all transfers (PROVIDER_SEND_CONCURRENCY; Efí asks for one at a
// time). A send holds a lease, given back when its call is answered or fails, or a bounded time
// after its caller gave up on it (releaseAfter); leases also expire, so a holder that died
// mid-send cannot block the gate forever; waiters are served first come, first served, and
// give up after a bounded wait.
import { DurableObject } from "cloudflare:workers";
import { logEvent } from "../../lib/log.ts";

export const sendGateInstanceName = "provider";
/** Bounds the queue: beyond it a send is told "busy" at once and retries on its own backoff. */
export const sendGateWaitersMax = 1_000;
const leasesKey = "leases";

export interface AcquireRequest {
  /** At most this many leases at once (PROVIDER_SEND_CONCURRENCY, at least 1). */
  limit: number;
  /** A lease not released within this is taken back. */
  leaseMs: number;
  /** How long to wait in line before answering busy. */
  waitMsMax: number;
}

export type AcquireResult = { outcome: "granted"; leaseId: string } | { outcome: "busy" };

interface Waiter {
  request: AcquireRequest;
  resolve: (result: AcquireResult) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class SendGate extends DurableObject<Env> {
  /** leaseId -> expiresAtMs; kept in storage too, so a restarted gate still counts its holders. */
  private leases: Map<string, number> | null = null;
  private readonly waiters: Waiter[] = [];
  /**
   * Leases whose send was given up on and that come back at their (shortened) expiry: their end
   * is routine, not a dead holder's. In memory: after a restart one is only logged as expired.
   */
  private readonly returning = new Set<string>();
  private expiryTimer: ReturnType<typeof setTimeout> | null = null;

  async acquire(request: AcquireRequest): Promise<AcquireResult> {
    const leases = await this.loaded();
    // Expiring here may free slots before the expiry timer fires: hand them to those already
    // waiting now, or nobody would serve them (with no lease left, no timer is set).
    this.serve(leases);
    // First come, first served: nobody passes a waiter, even when a slot is free right now.
    if (this.waiters.length === 0 && leases.size < request.limit) return this.grant(leases, request.leaseMs);
    if (this.waiters.length >= sendGateWaitersMax) return { outcome: "busy" };
    return new Promise<AcquireResult>((resolve) => {
      const waiter: Waiter = {
        request,
        resolve,
        timer: setTimeout(() => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          resolve({ outcome: "busy" });
        }, request.waitMsMax),
      };
      this.waiters.push(waiter);
      this.wakeAtNextExpiry(leases);
    });
  }

  async release(leaseId: string): Promise<{ released: boolean }> {
    const leases = await this.loaded();
    const released = leases.delete(leaseId);
    this.returning.delete(leaseId);
    if (released) this.persist(leases);
    this.serve(leases);
    return { released };
  }

  /**
   * The lease's send was given up on but may still be running at the provider: its slot comes
   * back `afterMs` from now (never later than the lease would have expired).
   */
  async releaseAfter(leaseId: string, afterMs: number): Promise<{ scheduled: boolean }> {
    const leases = await this.loaded();
    const expiresAtMs = leases.get(leaseId);
    if (expiresAtMs === undefined) return { scheduled: false };
    leases.set(leaseId, Math.min(expiresAtMs, Date.now() + afterMs));
    this.returning.add(leaseId);
    this.persist(leases);
    // Re-arms the expiry timer for the waiters at the earlier time.
    this.serve(leases);
    return { scheduled: true };
  }

  /** For tests and operators: the leases held now. */
  async held(): Promise<number> {
    const leases = await this.loaded();
    this.serve(leases);
    return leases.size;
  }

  private grant(leases: Map<string, number>, leaseMs: number): AcquireResult {
    const leaseId = crypto.randomUUID();
    leases.set(leaseId, Date.now() + leaseMs);
    this.persist(leases);
    return { outcome: "granted", leaseId };
  }

  /** Hands freed slots to the waiters in arrival order. */
  private serve(leases: Map<string, number>): void {
    this.expire(leases, Date.now());
    for (let first = this.waiters[0]; first !== undefined && leases.size < first.request.limit; first = this.waiters[0]) {
      this.waiters.shift();
      clearTimeout(first.timer);
      first.resolve(this.grant(leases, first.request.leaseMs));
    }
    this.wakeAtNextExpiry(leases);
  }

  private expire(leases: Map<string, number>, nowMs: number): void {
    let changed = false;
    for (const [leaseId, expiresAtMs] of leases) {
      if (expiresAtMs <= nowMs) {
        leases.delete(leaseId);
        changed = true;
        if (this.returning.delete(leaseId)) logEvent("send_gate_slot_returned", { lease_id: leaseId });
        else logEvent("send_gate_lease_expired", { lease_id: leaseId }, "warn");
      }
    }
    if (changed) this.persist(leases);
  }

  /**
   * While someone waits, wake when the next lease expires. A timer, not an alarm: the waiters
   * are in-memory calls that keep this object alive; without waiters, acquire expires leases.
   */
  private wakeAtNextExpiry(leases: Map<string, number>): void {
    if (this.expiryTimer !== null) clearTimeout(this.expiryTimer);
    this.expiryTimer = null;
    if (this.waiters.length === 0 || leases.size === 0) return;
    const nextExpiryMs = Math.min(...leases.values());
    this.expiryTimer = setTimeout(
      () => {
        this.expiryTimer = null;
        this.serve(leases);
      },
      Math.max(0, nextExpiryMs - Date.now()),
    );
  }

  private async loaded(): Promise<Map<string, number>> {
    if (this.leases === null) {
      const stored = (await this.ctx.storage.get<Record<string, number>>(leasesKey)) ?? {};
      this.leases ??= new Map(Object.entries(stored));
    }
    return this.leases;
  }

  /** Not awaited: the output gate holds every answer until the write is durable. */
  private persist(leases: Map<string, number>): void {
    void this.ctx.storage.put(leasesKey, Object.fromEntries(leases));
  }
}
