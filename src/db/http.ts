// Postgres over Neon's HTTP query path: one fetch per statement, over connections Neon keeps
// warm, so a statement costs one round trip where a new WebSocket costs about four before its
// first query (TCP, TLS, the upgrade, the startup). Every statement here stands alone (each
// saga step and each API read is one SQL function call or one SELECT), which is what this path
// is for; a session (a transaction across statements, a backend to fault mid-transaction) needs
// the WebSocket Pool the tests and the bench use (test/support/ws-pool.ts).
import { neon, neonConfig } from "@neondatabase/serverless";
import type { Queryable } from "./queryable.ts";

export interface DbSettings {
  databaseUrl: string;
  /** Local only: route the driver through a proxy to a plain PostgreSQL. */
  wsProxy?: string | undefined;
  /** Connections a WebSocket pool may open (the tests' and the bench's; test/support/ws-pool.ts). */
  maxConnections?: number;
  /** Shown in pg_stat_activity: tells API, saga and test connections apart. */
  applicationName?: string;
}

let configuredProxy: string | undefined;

function configureFetch(wsProxy: string | undefined): void {
  if (!wsProxy || wsProxy === configuredProxy) return;
  // Locally the dev proxy serves Neon's HTTP endpoint beside its WebSocket, on the same port
  // (scripts/lib/http-sql/, its differences from Neon in docs/local-database.md).
  neonConfig.fetchEndpoint = () => `http://${wsProxy}/sql`;
  configuredProxy = wsProxy;
}

/** The connection string with the name pg_stat_activity shows (API, saga and console apart). */
function withApplicationName(databaseUrl: string, applicationName: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set("application_name", applicationName);
  return url.toString();
}

/** A Queryable with nothing to open or end: each query is its own request. */
export function httpDb(settings: DbSettings): Queryable {
  configureFetch(settings.wsProxy);
  const sql = neon(withApplicationName(settings.databaseUrl, settings.applicationName ?? "pix-cashout"), { fullResults: true });
  return {
    query: async <Row extends Record<string, unknown>>(text: string, values: unknown[] = []) => {
      // Rows are parsed by the driver's pg type parsers, the same the Pool uses (dates, int8 as
      // text, json, arrays, bytea).
      const result = await sql.query(text, values, { fullResults: true });
      return { rows: result.rows as Row[] };
    },
  };
}
