// The bench's own PostgreSQL: a throwaway data directory on a free port, durable settings on
// (fsync, synchronous_commit, full pages), migrated, reachable by the Neon driver through the
// WebSocket proxy exactly as the Worker reaches it under `npm start`.
import path from "node:path";
import { freePort } from "../../scripts/lib/free-port.ts";
import { applyMigrations } from "../../scripts/lib/migrate.ts";
import { startLocalPostgres } from "../../scripts/lib/postgres.ts";
import { applyWhatIf, type WhatIf } from "./what-if.ts";
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
}

/** Durability on, stated rather than assumed: the targets are about commits that reach disk. */
const durableFlags = ["-c", "fsync=on", "-c", "synchronous_commit=on", "-c", "full_page_writes=on"];

/**
 * Registers each started piece with `own`, to be stopped in reverse order; `extraFlags` e.g.
 * statementsFlags; `whatIf` is run on the database after its migrations.
 */
export async function startBenchCluster(
  workDir: string,
  own: (stop: () => Promise<void>) => void,
  extraFlags: readonly string[] = [],
  whatIf: WhatIf | null = null,
): Promise<BenchCluster> {
  const dataDir = path.join(workDir, "postgres");
  const postgres = await startLocalPostgres({
    dataDir,
    port: await freePort(),
    persistent: false,
    serverFlags: [...durableFlags, ...extraFlags],
  });
  own(postgres.stop);
  await applyMigrations(postgres.databaseUrl);
  if (whatIf !== null) await applyWhatIf(postgres.databaseUrl, whatIf);
  const proxy = await startWsProxyProcess();
  own(proxy.stop);
  return {
    databaseUrl: postgres.databaseUrl,
    port: postgres.port,
    dataDir,
    wsProxy: proxy.address,
    postgresPid: postgres.pid,
    wsProxyPid: proxy.pid,
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
