// Metrics 2 and 3 (loopback): every hold on one account, 8 clients. The ledger's hold against
// the bare conditional UPDATE, the bare UPDATE against the disk's flush limit, and both against
// a lock-decide-write transaction, measured side by side in one run. The diagnostics of
// hot-diagnostics.ts say what a miss is made of.
import type { PoolClient } from "@neondatabase/serverless";
import type { BenchContext } from "../lib/context.ts";
import { loggedRounds } from "../lib/context.ts";
import { benchPool, withClients } from "../lib/db.ts";
import { measureFlushTime } from "../lib/flush-time.ts";
import { sideBySide, type Variant } from "../lib/load.ts";
import { openObserver } from "../lib/observer.ts";
import { atLeast, type MetricRow, reported } from "../lib/results.ts";
import { ledgerHold, lockingTransaction, rawConditionalUpdate, updateAndInsertHold } from "./hold-variants.ts";
import {
  meanLoneCommits,
  multiXactDiagnostic,
  normalPriorityRawPerS,
  singleClientCommit,
  slowFlushAddedMs,
  slowFlushDiagnostic,
  walFlushDiagnostic,
} from "./hot-diagnostics.ts";
import { hotAccountId, seedHotAccount } from "./hot-seed.ts";
import { loadClients } from "./ledger-efficiency.ts";

const rounds = 8;
const roundMs = 2_000;
const warmupMs = 1_000;
const flushProbeMs = 2_000;
const ledgerRatioMin = 0.8;
const flushRatioMin = 0.5;
const loopbackLockingRatioMin = 1.2;

export async function measureHotAccount(context: BenchContext): Promise<MetricRow[]> {
  await seedHotAccount(context);
  const setup = benchPool(context.cluster, 1, "bench-setup");
  try {
    await setup.query("CREATE TABLE IF NOT EXISTS bench_commit_probe (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())");
  } finally {
    await setup.end();
  }

  const variants: Variant<PoolClient>[] = [
    { name: "ledger", op: (client) => ledgerHold(client, hotAccountId) },
    { name: "raw", op: (client) => rawConditionalUpdate(client, hotAccountId) },
    { name: "locking", op: (client) => lockingTransaction(client, hotAccountId) },
    { name: "update+insert", op: (client) => updateAndInsertHold(client, hotAccountId) },
  ];

  const observer = await openObserver(context.cluster.databaseUrl);
  try {
    // Lone commits before and after the load bracket the disk's drift during it.
    const commitBefore = await singleClientCommit(context, observer);
    const { rates, underLoad, multiXactRows, slowFlush, normalPriorityRaw } = await withClients(
      benchPool(context.cluster, loadClients, "bench-load"),
      loadClients,
      async (clients) => ({
        rates: await sideBySide(clients, variants, { rounds, roundMs, warmupMs, ...loggedRounds(context, "hot") }),
        underLoad: await walFlushDiagnostic(clients, observer, context.cpu),
        multiXactRows: await multiXactDiagnostic(clients, observer),
        slowFlush: await slowFlushDiagnostic(clients),
        normalPriorityRaw: await normalPriorityRawPerS(clients, context),
      }),
    );
    const flushProbe = measureFlushTime(context.cluster.dataDir, flushProbeMs);
    const commit = meanLoneCommits(commitBefore, await singleClientCommit(context, observer));

    const ledgerPerS = rates.get("ledger") ?? 0;
    const rawPerS = rates.get("raw") ?? 0;
    const lockingPerS = rates.get("locking") ?? 0;
    // The commit flush time as the server itself timed it (pg_stat_io): the shorter of lone
    // commits' and the hot load's own flushes. Either can be inflated by a wait for a core
    // (an idle one waking, a busy one freeing); the shorter is nearer the disk.
    const flushMs = Math.min(commit.walFsyncMs, underLoad.fsyncMs);
    const flushLimitPerS = 1000 / flushMs;
    const rows: MetricRow[] = [
      reported("hot: ledger hold()", ledgerPerS, "holds/s"),
      reported("hot: raw conditional UPDATE", rawPerS, "holds/s"),
      atLeast("hot: ledger / raw", ledgerPerS / rawPerS, "ratio", ledgerRatioMin),
      reported("commit flush: server WAL fsync, lone commits", commit.walFsyncMs, "ms"),
      reported("commit flush: server WAL fsync, hot raw load", underLoad.fsyncMs, "ms"),
      reported("flush limit (1 / the shorter commit flush)", flushLimitPerS, "commits/s"),
      atLeast("hot: raw / flush limit", rawPerS / flushLimitPerS, "ratio", flushRatioMin),
      reported("diag: single-client INSERT commit, round trip", commit.roundTripMs, "ms"),
      reported("diag: disk probe, 8 KiB write + fdatasync", flushProbe.flushMs, "ms"),
      reported("diag hot: raw / probe flush limit", rawPerS / (1000 / flushProbe.flushMs), "ratio"),
      ...underLoad.rows,
      reported("hot, loopback: locking transaction", lockingPerS, "holds/s"),
      atLeast("hot, loopback: conditional UPDATE / locking", rawPerS / lockingPerS, "ratio", loopbackLockingRatioMin),
    ];
    const updateInsertPerS = rates.get("update+insert") ?? 0;
    rows.push(reported("diag hot: UPDATE + hold INSERT, one SQL statement", updateInsertPerS, "holds/s"));
    rows.push(reported("diag hot: ledger hold() / that statement", ledgerPerS / updateInsertPerS, "ratio"));
    // With the flush 1 ms slower, the flush limit is 1 / (1 ms + the flush above).
    const slowFlushLimitPerS = 1000 / (slowFlushAddedMs + flushMs);
    if (normalPriorityRaw !== undefined) {
      rows.push(reported("diag hot, PostgreSQL at normal priority: raw", normalPriorityRaw, "holds/s"));
      rows.push(reported("diag hot, PostgreSQL at normal priority: raw / flush limit", normalPriorityRaw / flushLimitPerS, "ratio"));
    }
    return [
      ...rows,
      ...multiXactRows,
      reported(`diag hot, flush +${slowFlushAddedMs} ms: ledger / raw`, slowFlush.ledgerPerS / slowFlush.rawPerS, "ratio"),
      reported(`diag hot, flush +${slowFlushAddedMs} ms: raw`, slowFlush.rawPerS, "holds/s"),
      reported(`diag hot, flush +${slowFlushAddedMs} ms: raw / its flush limit`, slowFlush.rawPerS / slowFlushLimitPerS, "ratio"),
    ];
  } finally {
    await observer.close();
  }
}
