// Diagnostics of the hot-account run: what the commit flush costs alone and under the load,
// how many commits each flush covered, whether PostgreSQL waited for a core, and how many
// MultiXacts the hold row's foreign key creates. They explain a miss; they have no targets.
import type { PoolClient } from "@neondatabase/serverless";
import type { BenchContext } from "../lib/context.ts";
import type { CpuMeter } from "../lib/cpu.ts";
import { benchPool, withClients } from "../lib/db.ts";
import { closedLoop, sideBySide } from "../lib/load.ts";
import { type Observer, publishStats } from "../lib/observer.ts";
import { type MetricRow, reported } from "../lib/results.ts";
import { atNormalPriority } from "../lib/server-priority.ts";
import { ledgerHold, rawConditionalUpdate } from "./hold-variants.ts";
import { hotAccountId } from "./hot-seed.ts";

const diagnosticMs = 1_500;
const loneCommitsMs = 1_500;

export interface WalFlushUnderLoad {
  rows: MetricRow[];
  /** The server's mean WAL fsync time while the raw hot-row load ran. */
  fsyncMs: number;
}

/** How many commits each WAL flush covered, and how much of the wall time the flushes took. */
export async function walFlushDiagnostic(clients: PoolClient[], observer: Observer, cpu: CpuMeter): Promise<WalFlushUnderLoad> {
  for (const client of clients) await publishStats(client);
  const walBefore = await observer.walFlushCounters();
  const countersBefore = await observer.databaseCounters();
  cpu.begin();
  const run = await closedLoop(clients, diagnosticMs, (client) => rawConditionalUpdate(client, hotAccountId));
  const share = cpu.end();
  for (const client of clients) await publishStats(client);
  const walAfter = await observer.walFlushCounters();
  const countersAfter = await observer.databaseCounters();
  const fsyncs = walAfter.fsyncs - walBefore.fsyncs;
  const fsyncMs = walAfter.fsyncMs - walBefore.fsyncMs;
  const commits = countersAfter.commits - countersBefore.commits;
  const rows = [
    reported("diag hot raw: holds", (run.ops / run.elapsedMs) * 1000, "holds/s"),
    reported("diag hot raw: commits per WAL fsync", commits / fsyncs, "commits"),
    reported("diag hot raw: share of wall time in WAL fsync", fsyncMs / run.elapsedMs, "ratio"),
    // Backends runnable but without a core: each wake-up after a flush or a lock waits this long.
    reported("diag hot raw: postgres waiting for a core", share.postgresWaitingCores, "cores"),
    reported("diag hot raw: machine busy (all processes)", share.machineCores, "cores"),
  ];
  return { rows, fsyncMs: fsyncMs / fsyncs };
}

/** MultiXacts created per hold on the hot account (CHECKPOINT publishes the counter). */
export async function multiXactDiagnostic(clients: PoolClient[], observer: Observer): Promise<MetricRow[]> {
  const before = await observer.nextMultiXactId();
  const run = await closedLoop(clients, diagnosticMs, (c) => ledgerHold(c, hotAccountId));
  const perHold = ((await observer.nextMultiXactId()) - before) / run.ops;
  return [reported("diag hot: MultiXacts per ledger hold()", perHold, "per hold")];
}

export interface LoneCommits {
  /** What the client waited per commit: a round trip, the insert and the flush. */
  roundTripMs: number;
  /** The server's own mean WAL fsync time over those commits. */
  walFsyncMs: number;
}

export function meanLoneCommits(a: LoneCommits, b: LoneCommits): LoneCommits {
  return { roundTripMs: (a.roundTripMs + b.roundTripMs) / 2, walFsyncMs: (a.walFsyncMs + b.walFsyncMs) / 2 };
}

/**
 * One client, one-row INSERT commits: nothing to wait for but the round trip and the flush.
 * At normal priority: a realtime server would time each flush with its idle core's wake-up.
 */
export async function singleClientCommit(context: BenchContext, observer: Observer): Promise<LoneCommits> {
  return atNormalPriority(context.cluster, () => loneCommits(context, observer));
}

async function loneCommits(context: BenchContext, observer: Observer): Promise<LoneCommits> {
  return withClients(benchPool(context.cluster, 1, "bench-commit-probe"), 1, async (clients) => {
    const [client] = clients;
    if (!client) throw new Error("no client");
    await publishStats(client);
    const before = await observer.walFlushCounters();
    const run = await closedLoop(clients, loneCommitsMs, async (c) => {
      await c.query("INSERT INTO bench_commit_probe DEFAULT VALUES");
    });
    await publishStats(client);
    const after = await observer.walFlushCounters();
    return { roundTripMs: run.elapsedMs / run.ops, walFsyncMs: (after.fsyncMs - before.fsyncMs) / (after.fsyncs - before.fsyncs) };
  });
}

/** Added to every commit's flush by commit_delay: about what a Neon commit costs (WAL to safekeepers). */
export const slowFlushAddedMs = 1;
const slowFlushRounds = 3;
const slowFlushRoundMs = 1_500;
const slowFlushWarmupMs = 500;

export interface SlowFlush {
  ledgerPerS: number;
  rawPerS: number;
}

/**
 * Ledger against raw on the hot account again, with every commit's flush made 1 ms slower
 * (commit_delay sleeps before the WAL flush, holding the WAL write lock). commit_siblings = 0
 * makes it sleep before every flush: PostgreSQL does not count a transaction blocked on a lock
 * as a sibling, and on one hot row every other hold is, so with 1 most flushes went undelayed.
 * Shows which part of the gap is per-commit CPU that a slow flush hides.
 */
export async function slowFlushDiagnostic(clients: PoolClient[]): Promise<SlowFlush> {
  const setDelay = async (delayUs: number): Promise<void> => {
    for (const client of clients) await client.query(`SET commit_delay = ${delayUs}; SET commit_siblings = 0`);
  };
  await setDelay(slowFlushAddedMs * 1000);
  try {
    const rates = await sideBySide(
      clients,
      [
        { name: "ledger", op: (client) => ledgerHold(client, hotAccountId) },
        { name: "raw", op: (client) => rawConditionalUpdate(client, hotAccountId) },
      ],
      { rounds: slowFlushRounds, roundMs: slowFlushRoundMs, warmupMs: slowFlushWarmupMs },
    );
    return { ledgerPerS: rates.get("ledger") ?? 0, rawPerS: rates.get("raw") ?? 0 };
  } finally {
    await setDelay(0);
  }
}

const normalPriorityRounds = 3;
const normalPriorityRoundMs = 1_500;
const normalPriorityWarmupMs = 500;

/**
 * Raw hot-row holds with the server's processes back at normal priority: what the bench's
 * scheduling (server-priority.ts) changes. Undefined when the bench could not raise it in the
 * first place (then the main rows already are this).
 */
export async function normalPriorityRawPerS(clients: PoolClient[], context: BenchContext): Promise<number | undefined> {
  if (context.cluster.serverPriority !== "realtime") return undefined;
  // sideBySide with one variant: a warm-up, then total holds over total time of its rounds.
  const rates = await atNormalPriority(context.cluster, () =>
    sideBySide(clients, [{ name: "raw", op: (client) => rawConditionalUpdate(client, hotAccountId) }], {
      rounds: normalPriorityRounds,
      roundMs: normalPriorityRoundMs,
      warmupMs: normalPriorityWarmupMs,
    }),
  );
  return rates.get("raw") ?? 0;
}
