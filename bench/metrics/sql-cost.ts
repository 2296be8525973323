// Diagnostic: PostgreSQL's CPU for one transfer's three statements, on one warm connection, with
// nothing else around it: the saga's own store calls (open, send, complete; test/support/
// store-path.ts) against the raw spread UPDATE on the same backend, batches alternating. Where
// the throughput section meters the whole server under the Worker's load, this isolates the SQL,
// so a change to a function or a table shows in one run of `npm run bench -- --only=sql`
// (about 15 s). One backend's own CPU time (/proc/<pid>/schedstat, in nanoseconds): no commit
// group effects, no background processes, no cold start (each batch follows a warm-up).
// BENCH_SQL_PRELUDE, when set, is a what-if: SQL run on a second database, migrated alike (and
// given `--what-if`'s SQL too, so that "as migrated" names the same schema on both sides), whose
// connection runs the same transfers in small batches alternating with the first's, so that
// the machine's drift (a fifth from one run to the next here) falls on both sides alike and
// their ratio is the what-if's cost.
import type { PoolClient } from "@neondatabase/serverless";
import pg from "pg";
import { applyMigrations } from "../../scripts/lib/migrate.ts";
import { completeThroughStore, type StorePathStep } from "../../test/support/store-path.ts";
import { accountIds, seedAccounts } from "../lib/accounts.ts";
import { databaseUrlFor } from "../lib/cluster.ts";
import type { BenchContext } from "../lib/context.ts";
import { processRunMs } from "../lib/cpu.ts";
import { benchPool } from "../lib/db.ts";
import { type MetricRow, reported } from "../lib/results.ts";
import { applyWhatIf } from "../lib/what-if.ts";
import { rawConditionalUpdate } from "./hold-variants.ts";

const accounts = 400;
const warmTransfers = 30;
const whatIfDatabase = "bench_sql_whatif";

/** Alone: few long batches. Beside a what-if: many short ones, alternating, so drift cancels. */
const plain = { rounds: 4, transfersPerRound: 100, rawUpdatesPerRound: 1_000 };
const sideBySide = { rounds: 24, transfersPerRound: 20, rawUpdatesPerRound: 200 };

type Sums = Record<StorePathStep | "transfer" | "raw", number>;

interface Side {
  client: PoolClient;
  backendPid: number;
  sums: Sums;
  release(): Promise<void>;
}

async function openSide(context: BenchContext, databaseUrl: string, prelude: string | null): Promise<Side> {
  const db = { databaseUrl, wsProxy: context.cluster.wsProxy };
  const pool = benchPool(db, 2, "bench-sql");
  const client = await pool.connect();
  await seedAccounts(pool, accountIds("bench-sql", accounts));
  if (prelude !== null) await client.query(prelude);
  const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  return {
    client,
    backendPid: rows[0]?.pid ?? 0,
    sums: { open: 0, send: 0, complete: 0, transfer: 0, raw: 0 },
    release: async () => {
      client.release();
      await pool.end();
    },
  };
}

/** A second database of the same cluster, migrated (and `--what-if`'s SQL run) as the first, for the what-if. */
async function whatIfUrl(context: BenchContext): Promise<string> {
  const admin = new pg.Client({ connectionString: databaseUrlFor(context.cluster.databaseUrl, "postgres") });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${whatIfDatabase}`);
    await admin.query(`CREATE DATABASE ${whatIfDatabase}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrlFor(context.cluster.databaseUrl, whatIfDatabase);
  await applyMigrations(url);
  if (context.whatIf !== null) await applyWhatIf(url, context.whatIf);
  return url;
}

export async function measureSqlCost(context: BenchContext): Promise<MetricRow[]> {
  const prelude = process.env.BENCH_SQL_PRELUDE || null;
  const plan = prelude === null ? plain : sideBySide;
  const ids = accountIds("bench-sql", accounts);
  const asMigrated = await openSide(context, context.cluster.databaseUrl, null);
  const whatIf = prelude === null ? null : await openSide(context, await whatIfUrl(context), prelude);
  let next = 0;
  const account = (): string => ids[next++ % ids.length] ?? "";
  const transfers = async (side: Side, count: number, metered: boolean): Promise<void> => {
    for (let i = 0; i < count; i++) {
      let mark = processRunMs(side.backendPid);
      const startMs = mark;
      await completeThroughStore(side.client, account(), 1, Date.now(), (step) => {
        const nowMs = processRunMs(side.backendPid);
        if (metered) side.sums[step] += nowMs - mark;
        mark = nowMs;
      });
      if (metered) side.sums.transfer += processRunMs(side.backendPid) - startMs;
    }
  };
  const raws = async (side: Side, count: number): Promise<number> => {
    const startMs = processRunMs(side.backendPid);
    for (let i = 0; i < count; i++) await rawConditionalUpdate(side.client, account());
    return processRunMs(side.backendPid) - startMs;
  };
  try {
    const sides = whatIf === null ? [asMigrated] : [asMigrated, whatIf];
    for (const side of sides) {
      await transfers(side, warmTransfers, false);
      await raws(side, 200);
    }
    for (let round = 0; round < plan.rounds; round++) {
      // Each side goes first every other round: neither always follows the raw UPDATEs.
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        await transfers(side, plan.transfersPerRound, true);
        side.sums.raw += await raws(side, plan.rawUpdatesPerRound);
      }
    }
  } finally {
    await asMigrated.release();
    await whatIf?.release();
  }
  const perTransfer = (ms: number): number => ms / (plan.rounds * plan.transfersPerRound);
  const rawMs = (side: Side): number => side.sums.raw / (plan.rounds * plan.rawUpdatesPerRound);
  const describe = (side: Side): string =>
    `backend CPU per transfer ${perTransfer(side.sums.transfer).toFixed(2)} ms (open ${perTransfer(side.sums.open).toFixed(2)}, send ${perTransfer(side.sums.send).toFixed(2)}, complete ${perTransfer(side.sums.complete).toFixed(2)}); per raw UPDATE ${rawMs(side).toFixed(3)} ms`;
  context.log(`sql: ${describe(asMigrated)}`);
  const rows = [
    reported(
      "diag sql: backend CPU per transfer, one warm connection (open + send + complete)",
      perTransfer(asMigrated.sums.transfer),
      "ms",
    ),
    reported("diag sql: of which open", perTransfer(asMigrated.sums.open), "ms"),
    reported("diag sql: of which send", perTransfer(asMigrated.sums.send), "ms"),
    reported("diag sql: of which complete", perTransfer(asMigrated.sums.complete), "ms"),
    reported("diag sql: backend CPU per raw spread UPDATE, same connection", rawMs(asMigrated), "ms"),
    reported("diag sql: transfer / raw UPDATE", perTransfer(asMigrated.sums.transfer) / rawMs(asMigrated), "ratio"),
  ];
  if (whatIf === null) return rows;
  context.log(`sql, what-if (BENCH_SQL_PRELUDE): ${describe(whatIf)}`);
  return [
    ...rows,
    reported("diag sql: what-if backend CPU per transfer", perTransfer(whatIf.sums.transfer), "ms"),
    reported("diag sql: what-if / as migrated, per transfer", whatIf.sums.transfer / asMigrated.sums.transfer, "ratio"),
    reported("diag sql: what-if / as migrated, per raw UPDATE (drift check: ~1)", whatIf.sums.raw / asMigrated.sums.raw, "ratio"),
  ];
}
