// Postgres sessions through the Neon serverless driver's WebSocket Pool, for the tests and the
// bench: work that needs one connection across statements (transactions held open, faults
// injected mid-transaction, load workers). The Worker's single statements go over
// src/db/http.ts instead.
import { neonConfig, Pool } from "@neondatabase/serverless";
import type { DbSettings } from "../../src/db/http.ts";
import { logEvent } from "../../src/lib/log.ts";
import { TolerantWebSocket } from "./tolerant-websocket.ts";

let configuredProxy: string | undefined;
neonConfig.webSocketConstructor = TolerantWebSocket;

function configureDriver(wsProxy: string | undefined): void {
  if (!wsProxy || wsProxy === configuredProxy) return;
  // A plain local PostgreSQL has no TLS and no Neon edge: plain WebSocket, no pipelining.
  neonConfig.wsProxy = (host, port) => `${wsProxy}/v1?address=${host}:${port}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
  // The driver's coalescing waits a timer tick (about 1 ms) before each write; over loopback
  // that is most of a query's time. TolerantWebSocket batches each burst into one frame
  // without the wait. Neon keeps the driver's default (it then sends one burst per tick).
  neonConfig.coalesceWrites = false;
  configuredProxy = wsProxy;
}

export function createPool(settings: DbSettings): Pool {
  configureDriver(settings.wsProxy);
  const pool = new Pool({
    connectionString: settings.databaseUrl,
    max: settings.maxConnections ?? 4,
    application_name: settings.applicationName ?? "pix-cashout",
  });
  // Without a listener, an idle connection the server drops is an uncaught exception.
  pool.on("error", (error: Error) => {
    // Ending the pool closes its sockets, which workerd reports as lost connections: expected.
    if (pool.ending) return;
    logEvent("db_pool_error", { message: error.message }, "warn");
  });
  return pool;
}
