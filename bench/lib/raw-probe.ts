// A raw spread UPDATE run beside a load rather than sections before it: one connection of its
// own runs it at a steady pace while the load runs, and its backend's own CPU time
// (/proc/<pid>/schedstat) over the UPDATEs it ran is what one costs under the load's
// conditions. Paced, each reaches a backend that slept since the last one; on this 2-core
// virtual machine that costs about three times an UPDATE sent back to back, on a quiet machine
// too (docs/performance.md, "What a transfer's CPU is made of").
import type { Pool, PoolClient } from "@neondatabase/serverless";
import { sleep } from "../../src/lib/sleep.ts";
import { rawConditionalUpdate } from "../metrics/hold-variants.ts";
import { processRunMs } from "./cpu.ts";
import { publishStats } from "./observer.ts";

export interface RawProbeResult {
  updates: number;
  /** The probe's backend's CPU over the whole probe, ms: the load's share is the rest. */
  backendCpuMs: number;
}

/** What one of the probe's UPDATEs cost its backend, ms. */
export function cpuMsPerUpdate(result: RawProbeResult): number {
  return result.backendCpuMs / result.updates;
}

/** UPDATEs before any metering: the backend plans the statement and loads its caches once. */
const warmUpdates = 50;

export class RawProbe {
  private readonly pool: Pool;
  private readonly client: PoolClient;
  private readonly backendPid: number;
  private readonly anyAccount: () => string;
  private readonly paceMs: number;
  private running = false;
  private updates = 0;
  /** The backend's CPU so far when start() ran, ms (a reading, not a time of day). */
  private cpuAtStartMs = 0;
  private loop: Promise<void> = Promise.resolve();
  /** Kept, not thrown, until stop(): a rejection nobody awaits yet would end the process. */
  private failure: unknown;

  private constructor(pool: Pool, client: PoolClient, backendPid: number, anyAccount: () => string, paceMs: number) {
    this.pool = pool;
    this.client = client;
    this.backendPid = backendPid;
    this.anyAccount = anyAccount;
    this.paceMs = paceMs;
  }

  /** Opens its connection on `pool` (ended by close()) and warms it; its rows are published. */
  static async open(pool: Pool, anyAccount: () => string, paceMs: number): Promise<RawProbe> {
    let client: PoolClient | undefined;
    try {
      client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const backendPid = rows[0]?.pid;
      if (backendPid === undefined) throw new Error("raw probe: no backend pid");
      for (let i = 0; i < warmUpdates; i++) await rawConditionalUpdate(client, anyAccount());
      // The warm-up's rows are counted before a load's starting counters are read, not in them.
      await publishStats(client);
      return new RawProbe(pool, client, backendPid, anyAccount, paceMs);
    } catch (error) {
      client?.release();
      await pool.end();
      throw error;
    }
  }

  start(): void {
    this.running = true;
    this.updates = 0;
    this.failure = undefined;
    this.cpuAtStartMs = processRunMs(this.backendPid);
    this.loop = this.run().catch((error: unknown) => {
      this.failure = error;
    });
  }

  async stop(): Promise<RawProbeResult> {
    this.running = false;
    await this.loop;
    if (this.failure !== undefined) throw this.failure;
    return { updates: this.updates, backendCpuMs: processRunMs(this.backendPid) - this.cpuAtStartMs };
  }

  async close(): Promise<void> {
    this.running = false;
    await this.loop;
    // A connection whose UPDATE failed is discarded, not handed back.
    this.client.release(this.failure !== undefined);
    await this.pool.end();
  }

  private async run(): Promise<void> {
    while (this.running) {
      await rawConditionalUpdate(this.client, this.anyAccount());
      this.updates += 1;
      await sleep(this.paceMs);
    }
  }
}
