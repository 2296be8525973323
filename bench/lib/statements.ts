// Where PostgreSQL's time goes, statement by statement (`npm run bench -- --statements`): the
// server loads pg_stat_statements, tracking statements inside the SQL functions too, and a
// section reads the heaviest after its load. Opt-in, because the extension's own bookkeeping
// would shift every ratio the targets compare.
import pg from "pg";
import { databaseUrlFor } from "./cluster.ts";

/** Server flags that load the extension and track nested statements. */
export const statementsFlags = ["-c", "shared_preload_libraries=pg_stat_statements", "-c", "pg_stat_statements.track=all"];

export interface StatementCost {
  calls: number;
  totalMs: number;
  /** Called by a client (true) or from inside a function or trigger (false). */
  topLevel: boolean;
  query: string;
}

export interface Statements {
  reset(): Promise<void>;
  /** The heaviest statements of the measured database since the reset, by total execution time. */
  heaviest(limit: number): Promise<StatementCost[]>;
  close(): Promise<void>;
}

/** Reads the counters from the `postgres` database, so the reads count in neither side. */
export async function openStatements(databaseUrl: string): Promise<Statements> {
  const measuredDatabase = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: databaseUrlFor(databaseUrl, "postgres") });
  await client.connect();
  await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  return {
    reset: async () => {
      await client.query("SELECT pg_stat_statements_reset()");
    },
    async heaviest(limit) {
      const { rows } = await client.query<{ calls: string; total_ms: number; toplevel: boolean; query: string }>(
        `SELECT s.calls, s.total_exec_time AS total_ms, s.toplevel, regexp_replace(s.query, '\\s+', ' ', 'g') AS query
           FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
          WHERE d.datname = $1 ORDER BY s.total_exec_time DESC LIMIT $2`,
        [measuredDatabase, limit],
      );
      return rows.map((r) => ({ calls: Number(r.calls), totalMs: Number(r.total_ms), topLevel: r.toplevel, query: r.query }));
    },
    close: () => client.end(),
  };
}

/** One log line a statement: calls and execution time per unit of work, then the statement. */
export function describeStatements(costs: readonly StatementCost[], units: number, unit: string): string[] {
  return costs.map((c) => {
    const where = c.topLevel ? "client" : "nested";
    return `${(c.calls / units).toFixed(1)} calls, ${(c.totalMs / units).toFixed(3)} ms per ${unit} (${where}): ${c.query.slice(0, 160)}`;
  });
}
