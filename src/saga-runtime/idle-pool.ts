// A database pool kept across a burst of saga steps (start, the send right after, a webhook a
// moment later) and ended once the object has been idle for a while. A new connection costs a
// WebSocket handshake and authentication, and without a pooled endpoint a backend that compiles
// our SQL functions again (docs/performance.md); an idle pool must
// not outlive the burst, since the object may sleep until its next alarm. The idle bound is
// short on purpose: every object in flight holds a connection while its pool lives, so a
// storm of transfers would otherwise hold as many connections as objects (a 1,000-transfer
// storm met Postgres' max_connections with 2 s). 500 ms covers start -> send.
import type { Pool } from "@neondatabase/serverless";
import { createPool, type DbSettings } from "../db/pool.ts";

export const poolIdleMsMax = 500;

export class IdlePool {
  private pool: Pool | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly settings: () => DbSettings;

  constructor(settings: () => DbSettings) {
    this.settings = settings;
  }

  /**
   * Runs `work` on the shared pool; a fault discards the pool so the retry starts afresh. With
   * `preconnect`, a connection starts opening at once, before `work` asks for one: a step that
   * calls the provider first and writes after gets its connection while the provider answers.
   */
  async use<T>(work: (pool: Pool) => Promise<T>, options: { preconnect?: boolean } = {}): Promise<T> {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    // One connection: steps are serialised, and a query made while the preconnect is still
    // opening must wait for it rather than open a second one.
    this.pool ??= createPool({ ...this.settings(), maxConnections: 1 });
    const pool = this.pool;
    if (options.preconnect === true && pool.totalCount === 0) {
      // A failure here is the query's to report: it retries the connection and faults then.
      pool.connect().then(
        (client) => client.release(),
        () => undefined,
      );
    }
    try {
      return await work(pool);
    } catch (error) {
      this.end();
      throw error;
    } finally {
      if (this.pool !== null) this.idleTimer = setTimeout(() => this.end(), poolIdleMsMax);
    }
  }

  end(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const pool = this.pool;
    this.pool = null;
    // Ending a pool whose connections already died rejects; there is nothing left to close.
    pool?.end().catch(() => undefined);
  }
}
