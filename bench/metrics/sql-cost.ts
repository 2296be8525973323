// Diagnostic: PostgreSQL's CPU for one transfer's three statements, on one warm connection, with
// nothing else around it: the saga's own store calls (open, send, complete; test/support/
// store-path.ts) against the raw spread UPDATE on the same backend, batches alternating. Where
// the throughput section meters the whole server under the Worker's load, this isolates the SQL,
// so a change to a function or a table shows in one run of `npm run bench -- --only=sql`
// (about 15 s). One backend's own CPU, read from /proc: no commit group effects, no background
// processes, no cold start (each batch follows a warm-up). BENCH_SQL_PRELUDE, when set, is SQL
// run on that connection first: a what-if (a function replaced, a constraint dropped) measured
// against the same run's raw UPDATE, on the bench's throwaway database.
import type { PoolClient } from "@neondatabase/serverless";
import { completeThroughStore, type StorePathStep } from "../../test/support/store-path.ts";
import { accountIds, seedAccounts } from "../lib/accounts.ts";
import type { BenchContext } from "../lib/context.ts";
import { processCpuMs } from "../lib/cpu.ts";
import { benchPool, withClients } from "../lib/db.ts";
import { type MetricRow, reported } from "../lib/results.ts";
import { rawConditionalUpdate } from "./hold-variants.ts";

const accounts = 400;
const rounds = 4;
const transfersPerRound = 100;
const rawUpdatesPerRound = 1_000;
const warmTransfers = 30;

type Sums = Record<StorePathStep | "transfer" | "raw", number>;

export async function measureSqlCost(context: BenchContext): Promise<MetricRow[]> {
  const ids = accountIds("bench-sql", accounts);
  const sums: Sums = { open: 0, send: 0, complete: 0, transfer: 0, raw: 0 };
  await withClients(benchPool(context.cluster, 1, "bench-sql"), 1, async ([client]) => {
    if (client === undefined) throw new Error("no client");
    const seed = benchPool(context.cluster, 1, "bench-sql-seed");
    try {
      await seedAccounts(seed, ids);
    } finally {
      await seed.end();
    }
    if (process.env.BENCH_SQL_PRELUDE) await client.query(process.env.BENCH_SQL_PRELUDE);
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const backendPid = rows[0]?.pid ?? 0;
    let next = 0;
    const account = (): string => ids[next++ % ids.length] ?? "";
    const transfers = async (count: number, into: Sums | null): Promise<void> => {
      for (let i = 0; i < count; i++) {
        let mark = processCpuMs(backendPid);
        const startMs = mark;
        await completeThroughStore(client, account(), 1, Date.now(), (step) => {
          const nowMs = processCpuMs(backendPid);
          if (into) into[step] += nowMs - mark;
          mark = nowMs;
        });
        if (into) into.transfer += processCpuMs(backendPid) - startMs;
      }
    };
    const raws = async (on: PoolClient, count: number): Promise<number> => {
      const startMs = processCpuMs(backendPid);
      for (let i = 0; i < count; i++) await rawConditionalUpdate(on, account());
      return processCpuMs(backendPid) - startMs;
    };
    await transfers(warmTransfers, null);
    await raws(client, 200);
    for (let round = 0; round < rounds; round++) {
      await transfers(transfersPerRound, sums);
      sums.raw += await raws(client, rawUpdatesPerRound);
    }
  });
  const perTransfer = (ms: number): number => ms / (rounds * transfersPerRound);
  const rawMs = sums.raw / (rounds * rawUpdatesPerRound);
  context.log(
    `sql: backend CPU per transfer ${perTransfer(sums.transfer).toFixed(2)} ms (open ${perTransfer(sums.open).toFixed(2)}, send ${perTransfer(sums.send).toFixed(2)}, complete ${perTransfer(sums.complete).toFixed(2)}); per raw UPDATE ${rawMs.toFixed(3)} ms`,
  );
  return [
    reported("diag sql: backend CPU per transfer, one warm connection (open + send + complete)", perTransfer(sums.transfer), "ms"),
    reported("diag sql: of which open", perTransfer(sums.open), "ms"),
    reported("diag sql: of which send", perTransfer(sums.send), "ms"),
    reported("diag sql: of which complete", perTransfer(sums.complete), "ms"),
    reported("diag sql: backend CPU per raw spread UPDATE, same connection", rawMs, "ms"),
    reported("diag sql: transfer / raw UPDATE", perTransfer(sums.transfer) / rawMs, "ratio"),
  ];
}
