// The bench's own PostgreSQL: a throwaway data directory on a free port, durable settings on
// (fsync, synchronous_commit, full pages), migrated, reachable by the Neon driver through the
// WebSocket proxy exactly as the Worker reaches it under `npm start`.
import path from "node:path";
import { freePort } from "../../scripts/lib/free-port.ts";
import { applyMigrations } from "../../scripts/lib/migrate.ts";
import { startLocalPostgres } from "../../scripts/lib/postgres.ts";
import { raiseServerPriority, type ServerPriority } from "./server-priority.ts";
import { startWsProxyProcess } from "./ws-proxy-process.ts";

export interface BenchCluster {
  databaseUrl: string;
  port: number;
  dataDir: string;
  /** host:port of the WebSocket proxy (NEON_WS_PROXY). */
  wsProxy: string;
  /** Server pids, so the bench can account for CPU time per process. */
  postgresPid: number;
  wsProxyPid: number;
  /** How the server's processes are scheduled (server-priority.ts), and why, for the report. */
  serverPriority: ServerPriority;
  serverPriorityNote: string;
}

/** Durability on, stated rather than assumed: the targets are about commits that reach disk. */
const durableFlags = [
  "-c",
  "fsync=on",
  "-c",
  "synchronous_commit=on",
  "-c",
  "full_page_writes=on",
  // Lets pg_stat_io report the WAL fsync time the server itself saw.
  "-c",
  "track_wal_io_timing=on",
];

/** Registers each started piece with `own`, to be stopped in reverse order. */
export async function startBenchCluster(workDir: string, own: (stop: () => Promise<void>) => void): Promise<BenchCluster> {
  const dataDir = path.join(workDir, "postgres");
  const postgres = await startLocalPostgres({ dataDir, port: await freePort(), persistent: false, serverFlags: durableFlags });
  own(postgres.stop);
  await applyMigrations(postgres.databaseUrl);
  const priority = raiseServerPriority(postgres.pid);
  const proxy = await startWsProxyProcess();
  own(proxy.stop);
  return {
    databaseUrl: postgres.databaseUrl,
    port: postgres.port,
    dataDir,
    wsProxy: proxy.address,
    postgresPid: postgres.pid,
    wsProxyPid: proxy.pid,
    serverPriority: priority.priority,
    serverPriorityNote: priority.note,
  };
}

/** The same server under another database name (the observer of pg_stat_database uses one). */
export function databaseUrlFor(databaseUrl: string, databaseName: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

/** The same server reached through another host:port (the latency proxy). */
export function databaseUrlVia(databaseUrl: string, port: number): string {
  const url = new URL(databaseUrl);
  url.port = String(port);
  return url.toString();
}
