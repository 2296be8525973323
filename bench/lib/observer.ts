// Reads the server's own counters (pg_stat_database, pg_control_checkpoint) from another database on the
// same server, over plain TCP: the observer's queries then count in neither the measured
// database's commits nor the measured driver path.
import pg from "pg";
import { databaseUrlFor } from "./cluster.ts";

export interface DatabaseCounters {
  commits: number;
  rollbacks: number;
  /** Rows inserted + updated + deleted: zero means nothing was written. */
  rowsWritten: number;
  /** Sessions (connections) ever established: each one is a forked server process. */
  sessions: number;
}

export interface Observer {
  databaseCounters(): Promise<DatabaseCounters>;
  /** Backends connected to the measured database other than `exceptPid`. */
  otherBackends(exceptPid: number): Promise<number>;
  /** Checkpoints, then reads the next MultiXact id it recorded (a cluster-wide counter). */
  nextMultiXactId(): Promise<number>;
  close(): Promise<void>;
}

export async function openObserver(databaseUrl: string): Promise<Observer> {
  const measuredDatabase = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: databaseUrlFor(databaseUrl, "postgres") });
  await client.connect();
  return {
    async databaseCounters() {
      const { rows } = await client.query<{ commits: string; rollbacks: string; rows_written: string; sessions: string }>(
        `SELECT xact_commit AS commits, xact_rollback AS rollbacks, tup_inserted + tup_updated + tup_deleted AS rows_written, sessions
           FROM pg_stat_database WHERE datname = $1`,
        [measuredDatabase],
      );
      const row = rows[0];
      if (!row) throw new Error(`no pg_stat_database row for ${measuredDatabase}`);
      return {
        commits: Number(row.commits),
        rollbacks: Number(row.rollbacks),
        rowsWritten: Number(row.rows_written),
        sessions: Number(row.sessions),
      };
    },
    async otherBackends(exceptPid: number) {
      const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> $2", [
        measuredDatabase,
        exceptPid,
      ]);
      return Number(rows[0]?.n ?? 0);
    },
    async nextMultiXactId() {
      await client.query("CHECKPOINT");
      const { rows } = await client.query<{ next: string }>("SELECT next_multixact_id::text AS next FROM pg_control_checkpoint()");
      return Number(rows[0]?.next ?? Number.NaN);
    },
    close: () => client.end(),
  };
}

/**
 * Makes a measured connection publish its pending statistics before it answers (one extra
 * commit, included). It reads a catalog row on purpose: a backend with no pending relation
 * statistics skips the flush altogether, and its commit count would stay unpublished.
 */
export async function publishStats(client: { query(text: string): Promise<unknown> }): Promise<void> {
  await client.query("SELECT pg_stat_force_next_flush() FROM pg_class LIMIT 1");
}
