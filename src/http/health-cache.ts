// The last database check of /healthz, kept per isolate for a few seconds. /healthz is
// unauthenticated and probed by monitors and load balancers, often every second from several
// places: a fresh connection per call (TLS and a WebSocket to Neon, one of its connection slots)
// would let anyone turn the health check into load on the database. Five seconds is far below
// any monitor's interval, so an outage still shows on the next probe; both answers are kept, so
// a database that is down is not hammered either.
export const healthCheckTtlMs = 5_000;

export type DatabaseHealth = "ok" | "unavailable";

export class HealthCache {
  private last: { checkedAtMs: number; health: DatabaseHealth } | null = null;
  private readonly ttlMs: number;

  constructor(ttlMs: number = healthCheckTtlMs) {
    this.ttlMs = ttlMs;
  }

  /** The kept answer while it is fresh, else `probe`'s (then kept). A clock going back refreshes. */
  async read(nowMs: number, probe: () => Promise<DatabaseHealth>): Promise<DatabaseHealth> {
    const last = this.last;
    if (last !== null && nowMs >= last.checkedAtMs && nowMs - last.checkedAtMs < this.ttlMs) return last.health;
    const health = await probe();
    this.last = { checkedAtMs: nowMs, health };
    return health;
  }
}

const caches = new WeakMap<object, HealthCache>();

/** One cache per isolate and configuration (Workers hand every request the same `env`). */
export function healthCacheFor(env: Env): HealthCache {
  let cache = caches.get(env);
  if (cache === undefined) {
    cache = new HealthCache();
    caches.set(env, cache);
  }
  return cache;
}
