// Warm PostgreSQL connections behind the HTTP SQL stand-in: one pg.Pool per connection string,
// as Neon keeps connections per endpoint and role behind its HTTP path. A pool's connections
// carry the application_name of the URL, so tests that pick backends by name (and the fault
// switchboard, which scopes faults by it) see the saga's, the API's and the console's apart.
import { existsSync } from "node:fs";
import type { Socket } from "node:net";
import pg from "pg";
import { type BatchOptions, beginStatement, type Statement } from "./protocol.ts";

/** Connections per connection string; a request beyond them waits, as behind Neon's pooler. */
export const connectionsPerUrlMax = 20;
/** An idle connection unused this long is closed: the stand-in must not pin server processes. */
const idleMsMax = 30_000;
/** Distinct connection strings served at once; beyond it the request is refused. */
const poolsMax = 32;

/** Rows stay the server's text: the client parses them with its own type parsers. */
const rawText = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;

export interface StatementResult {
  fields: pg.FieldDef[];
  rows: unknown[][];
  command: string;
  rowCount: number | null;
}

function isLoopbackHost(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "[::1]" || host === "::1";
}

export class Backends {
  private readonly pools = new Map<string, pg.Pool>();
  private readonly tcpOnly: boolean;

  /** `tcpOnly`: never the Unix socket, so every backend has a client port to be found by. */
  constructor(options: { tcpOnly?: boolean } = {}) {
    this.tcpOnly = options.tcpOnly ?? false;
  }

  /** The pool for a connection string; null for one that is malformed or not on loopback. */
  poolFor(connectionString: string): pg.Pool | null {
    const known = this.pools.get(connectionString);
    if (known) return known;
    let url: URL;
    try {
      url = new URL(connectionString);
    } catch {
      return null;
    }
    if (!/^postgres(ql)?:$/.test(url.protocol) || !isLoopbackHost(url.hostname) || this.pools.size >= poolsMax) return null;
    const port = Number(url.port || "5432");
    const applicationName = url.searchParams.get("application_name") ?? "";
    // PostgreSQL's Unix socket when it has one: the same server without the TCP stack.
    const socketDir = !this.tcpOnly && existsSync(`/tmp/.s.PGSQL.${port}`) ? "/tmp" : url.hostname.replace(/^\[|\]$/g, "");
    const pool = new pg.Pool({
      host: socketDir,
      port,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: decodeURIComponent(url.pathname.slice(1)),
      application_name: applicationName,
      max: connectionsPerUrlMax,
      idleTimeoutMillis: idleMsMax,
    });
    // A backend terminated while idle (pg_terminate_backend, a restart) leaves the pool.
    pool.on("error", () => undefined);
    // One cut while checked out (a fault's reset, a kill between statements) is the running
    // request's error to answer; without a listener it would be an uncaught exception.
    pool.on("connect", (client) => client.on("error", () => undefined));
    this.pools.set(connectionString, pool);
    return pool;
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
  }
}

async function run(client: pg.PoolClient, statement: Statement): Promise<StatementResult> {
  // Extended protocol always, as Neon's endpoint: one statement per query, parameters bound.
  const result = await client.query({
    text: statement.query,
    values: statement.params,
    rowMode: "array",
    types: rawText,
    queryMode: "extended",
  } as pg.QueryArrayConfig);
  return { fields: result.fields, rows: result.rows, command: result.command, rowCount: result.rowCount };
}

/**
 * Runs one statement, or a batch in one transaction, on a connection of `pool`. `beforeEach`
 * sees each statement before it is sent (the fault switchboard's hook: it may throw to stop).
 * A connection that failed is discarded rather than returned.
 */
export async function execute(
  pool: pg.Pool,
  statements: readonly Statement[],
  batch: BatchOptions | null,
  hooks: { connected?(client: pg.PoolClient): void; released?(): void; beforeEach?(statement: Statement): void } = {},
): Promise<StatementResult[]> {
  const client = await pool.connect();
  hooks.connected?.(client);
  let failed: Error | undefined;
  try {
    if (batch === null) {
      const [only] = statements;
      if (only === undefined) return [];
      hooks.beforeEach?.(only);
      return [await run(client, only)];
    }
    await client.query(beginStatement(batch));
    try {
      const results: StatementResult[] = [];
      for (const statement of statements) {
        hooks.beforeEach?.(statement);
        results.push(await run(client, statement));
      }
      await client.query("COMMIT");
      return results;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  } catch (error) {
    // A SQL error leaves the connection usable; anything else (a cut, a kill) does not.
    if (!(error instanceof pg.DatabaseError) || error.severity === "FATAL")
      failed = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    hooks.released?.();
    client.release(failed);
  }
}

/** The TCP (or Unix) socket under a pg client: pg keeps it on its connection. */
export function socketOfClient(client: pg.PoolClient): Socket | undefined {
  return (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
}
