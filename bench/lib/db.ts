// Driver access for the bench: the project's own pool factory (the Neon serverless driver
// through the WebSocket proxy), and one dedicated connection per load worker so that pool
// checkout costs fall on no variant.
import { neonConfig, type Pool, type PoolClient } from "@neondatabase/serverless";
import { createPool } from "../../test/support/ws-pool.ts";

export interface BenchDb {
  databaseUrl: string;
  wsProxy: string;
}

export function benchPool(db: BenchDb, maxConnections: number, applicationName: string): Pool {
  return createPool({ databaseUrl: db.databaseUrl, wsProxy: db.wsProxy, maxConnections, applicationName });
}

export async function checkOutClients(pool: Pool, count: number): Promise<PoolClient[]> {
  const clients: PoolClient[] = [];
  for (let i = 0; i < count; i++) clients.push(await pool.connect());
  return clients;
}

/** Returns the clients and ends the pool, whatever happens to the work in between. */
export async function withClients<T>(pool: Pool, count: number, work: (clients: PoolClient[]) => Promise<T>): Promise<T> {
  const clients = await checkOutClients(pool, count);
  try {
    return await work(clients);
  } finally {
    for (const client of clients) client.release();
    await pool.end();
  }
}

/**
 * The driver's default coalesces each burst of writes into one WebSocket message with
 * setTimeout(0), which Node and workerd both clamp to about 1 ms: every round trip waits that
 * long before leaving. The bench turns it off so its numbers are the database's, not a timer's;
 * the Worker keeps the default, and the bench reports what that costs.
 */
export function configureBenchDriver(): void {
  neonConfig.coalesceWrites = false;
}

/** Runs `work` with the driver's default (coalesced writes), as the Worker runs. Sequential use only. */
export async function withDriverDefaults<T>(work: () => Promise<T>): Promise<T> {
  neonConfig.coalesceWrites = true;
  try {
    return await work();
  } finally {
    neonConfig.coalesceWrites = false;
  }
}
