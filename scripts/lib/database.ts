// The database for `npm start`: DATABASE_URL from the environment when given, else the embedded
// PostgreSQL kept under the data directory. Either way migrated, and reachable by the Worker's
// Neon driver (through the WebSocket proxy when the server is a plain local PostgreSQL).
import path from "node:path";
import { preferredOrFreePort } from "./free-port.ts";
import { applyMigrations } from "./migrate.ts";
import { startLocalPostgres } from "./postgres.ts";
import { startWsProxy } from "./ws-proxy.ts";

/** A stable port keeps the dev DATABASE_URL the same between runs when it is free. */
const preferredPostgresPort = 54329;
const logTailLines = 40;

export interface LocalDatabase {
  databaseUrl: string;
  /** host:port of the WebSocket proxy, when the server needs one. */
  wsProxy: string | undefined;
  description: string;
}

/** Registers each started piece with `own` (stopped in reverse order on shutdown). */
export async function startDatabase(
  configuredUrl: string | undefined,
  dataDir: string,
  own: (stop: () => Promise<void>) => void,
): Promise<LocalDatabase> {
  let databaseUrl = configuredUrl;
  let description = `DATABASE_URL from the environment (host ${configuredUrl ? new URL(configuredUrl).hostname : ""})`;
  if (databaseUrl === undefined) {
    const postgresDir = path.join(dataDir, "postgres");
    const logTail: string[] = [];
    try {
      const postgres = await startLocalPostgres({
        dataDir: postgresDir,
        port: await preferredOrFreePort(preferredPostgresPort),
        persistent: true,
        onLog: (line) => {
          logTail.push(line.trimEnd());
          if (logTail.length > logTailLines) logTail.shift();
        },
      });
      own(postgres.stop);
      databaseUrl = postgres.databaseUrl;
      description = `embedded PostgreSQL on 127.0.0.1:${postgres.port} (pid ${postgres.pid}, data in ${postgresDir})`;
    } catch (error) {
      const detail = error instanceof Error ? error.message : "postgres exited during start";
      throw new Error(`PostgreSQL did not start: ${detail}\n${logTail.join("\n")}`);
    }
  }
  await applyMigrations(databaseUrl);
  let wsProxy: string | undefined;
  // Neon itself speaks WebSocket; only a plain PostgreSQL on this machine needs the proxy.
  if (isLoopback(new URL(databaseUrl).hostname)) {
    const proxy = await startWsProxy();
    own(proxy.close);
    wsProxy = proxy.address;
  }
  return { databaseUrl, wsProxy, description };
}

function isLoopback(hostname: string): boolean {
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
}
