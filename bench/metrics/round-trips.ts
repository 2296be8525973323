// Metric 4: database round trips per saga path, run by the real saga runner (advance.ts and the
// transfer store) against this PostgreSQL, counted on the driver and checked against the
// server's own count of commits (pg_stat_database.xact_commit) and of rows written.
import type { PoolClient } from "@neondatabase/serverless";
import { sleep } from "../../src/lib/sleep.ts";
import type { BenchContext } from "../lib/context.ts";
import { countingDb } from "../lib/counting-db.ts";
import { benchPool, withClients } from "../lib/db.ts";
import { type Observer, openObserver, publishStats } from "../lib/observer.ts";
import { atMost, type MetricRow } from "../lib/results.ts";
import { type SagaPath, sagaPaths } from "./saga-paths.ts";

const attemptsMax = 3;
const quietPollMs = 50;
const quietWaitMsMax = 5_000;

interface PathCount {
  roundTrips: number;
  commits: number;
  rowsWritten: number;
  state: string;
}

async function backendPid(client: PoolClient): Promise<number> {
  const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  return Number(rows[0]?.pid);
}

/** Waits until this connection is alone on the database, so no one else's commits count. */
async function waitAlone(observer: Observer, pid: number): Promise<boolean> {
  const giveUpAtMs = Date.now() + quietWaitMsMax;
  while (Date.now() < giveUpAtMs) {
    if ((await observer.otherBackends(pid)) === 0) return true;
    await sleep(quietPollMs);
  }
  return false;
}

async function countPath(client: PoolClient, observer: Observer, path: SagaPath): Promise<PathCount> {
  const pid = await backendPid(client);
  for (let attempt = 1; attempt <= attemptsMax; attempt++) {
    const prepared = await path.prepare(client);
    if (!(await waitAlone(observer, pid))) continue;
    await publishStats(client);
    const before = await observer.databaseCounters();
    const db = countingDb(client);
    const state = await path.run(db, prepared);
    await publishStats(client);
    const after = await observer.databaseCounters();
    // Someone else connected meanwhile (autovacuum): their commits would count; measure again.
    if ((await observer.otherBackends(pid)) > 0) continue;
    // publishStats' own transaction is one commit of the "after" side.
    return {
      roundTrips: db.roundTrips,
      commits: after.commits - before.commits - 1,
      rowsWritten: after.rowsWritten - before.rowsWritten,
      state,
    };
  }
  throw new Error(`${path.name}: the database never stayed quiet for a measurement`);
}

export async function measureRoundTrips(context: BenchContext): Promise<MetricRow[]> {
  const observer = await openObserver(context.cluster.databaseUrl);
  try {
    return await withClients(benchPool(context.cluster, 1, "bench-round-trips"), 1, async ([client]) => {
      if (!client) throw new Error("no client");
      const rows: MetricRow[] = [];
      for (const path of sagaPaths) {
        const count = await countPath(client, observer, path);
        if (count.state !== path.expectedState) throw new Error(`${path.name} ended ${count.state}, not ${path.expectedState}`);
        context.log(
          `round trips, ${path.name}: ${count.roundTrips} (commits ${count.commits}, rows written ${count.rowsWritten}, ends ${count.state})`,
        );
        rows.push(atMost(`round trips: ${path.name}`, count.roundTrips, "round trips", path.roundTripsMax));
        rows.push(atMost(`pg commits: ${path.name}`, count.commits, "commits", path.roundTripsMax));
        if (path.writesNothing) rows.push(atMost(`rows written: ${path.name}`, count.rowsWritten, "rows", 0));
      }
      return rows;
    });
  } finally {
    await observer.close();
  }
}
