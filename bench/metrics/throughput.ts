// Metric 6: transfers completed per second through `wrangler dev`, the whole system at once:
// clients POST transfers, each saga holds, its alarm sends to the sandbox, and its next alarm
// (50 ms later) finds the payment confirmed and settles. Silent keys: no sandbox webhooks, whose
// delivery is one at a time from the sandbox's single object, would otherwise set the pace.
// Counted from Postgres: completions inside the loaded window, after a warm-up. The cost rows
// meter CPU from the start of the load until every transfer completed, per transfer completed,
// against the ledger section's raw spread UPDATE; with `--raw-beside`, diag rows compare them
// with the same UPDATE run beside the load (bench/lib/raw-probe.ts).
import path from "node:path";
import type { Pool } from "@neondatabase/serverless";
import { sleep } from "../../src/lib/sleep.ts";
import { accountIds, seedAccounts } from "../lib/accounts.ts";
import { benchSecrets, StackClient } from "../lib/api.ts";
import type { BenchContext } from "../lib/context.ts";
import { type CpuShare, describeShare } from "../lib/cpu.ts";
import { benchPool } from "../lib/db.ts";
import { closedLoop } from "../lib/load.ts";
import { openObserver, publishStats } from "../lib/observer.ts";
import { cpuMsPerUpdate, RawProbe, type RawProbeResult } from "../lib/raw-probe.ts";
import { atMost, type MetricRow, reported } from "../lib/results.ts";
import { polledTimings, stackVars } from "../lib/stack-vars.ts";
import { describeStatements, openStatements } from "../lib/statements.ts";
import { describeTableWrites, openTableWrites, writesBetween } from "../lib/table-writes.ts";
import { benchAmountCents, silentPixKey } from "../lib/transfer-shape.ts";
import { startWorkerStack } from "../lib/worker-stack.ts";
import { seedSpreadAccounts } from "./ledger-efficiency.ts";
import { waitForStates } from "./transfer-states.ts";

const clients = 16;
/** Enough accounts that no per-account limit (velocity, daily, request rate) comes near. */
const accounts = 400;
const loadMs = 15_000;
/** Not measured: the first seconds pay for the isolate's and the pool's warm-up. */
const warmupMs = 3_000;
/**
 * Before any metering, the same load for this long, every transfer it makes completed: the
 * HTTP SQL stand-in opens its backends (up to 20) and each compiles the functions and loads its
 * caches once, as Neon's pooled backends have long done by the time a transfer comes. A 15 s
 * load would otherwise charge each transfer a share of 20 cold starts (tens of ms each), which
 * the raw UPDATE it is compared with, measured on warm connections, never pays.
 */
const warmLoadMs = 4_000;
const drainWaitMs = 90_000;
/**
 * A backend publishes its counters at most once a second, and an idle one within 10 s
 * (PostgreSQL's PGSTAT_IDLE_INTERVAL): they are read after this pause, so the last are in.
 */
const statsSettleMs = 11_000;
const statementsLogged = 20;
/**
 * With `--raw-beside`, the raw UPDATE beside the load runs one every this many ms on a
 * connection of its own, so that its backend sleeps between them, as the stand-in's backends do
 * between a transfer's statements (in one sampled load, each got one every ~230 ms). Paced from
 * 2 to 100 ms it cost 0.70 to 0.90 ms, one run each.
 */
const probePaceMs = 20;

/**
 * PostgreSQL CPU per completed transfer, as a multiple of one raw spread UPDATE's: a transfer
 * writes about sixteen rows where the raw UPDATE writes one, each costing about what it costs.
 */
const postgresCostRatioMax = 20;
/** Rows a completed transfer writes (docs/performance.md lists each one and the fact it holds). */
const rowsPerTransferMax = 16;

const timings = { ...polledTimings, SANDBOX_CONFIRM_MS: "0" };

interface Load {
  transferIds: string[];
  startedAtMs: number;
  endedAtMs: number;
  /** CPU from the start of the load until every transfer completed. */
  cpu: CpuShare;
  drainedAtMs: number;
  /** Database sessions opened from the start of the load until every transfer completed. */
  sessions: number;
  /** Rows inserted, updated or deleted over the same span (pg_stat_database). */
  rowsWritten: number;
  /** With `--raw-beside`, the raw spread UPDATEs run beside the load over the same span. */
  probe: RawProbeResult | null;
}

/** Hands out accounts in turn: the warm load's and the measured load's never share one. */
interface AccountCursor {
  next(): string;
}

function accountCursor(ids: readonly string[]): AccountCursor {
  let next = 0;
  return { next: () => ids[next++ % ids.length] ?? "" };
}

/** The unmetered load before the measured one; returns once all it made completed. */
async function warmUp(context: BenchContext, api: StackClient, accounts: AccountCursor): Promise<void> {
  const transferIds: string[] = [];
  await closedLoop(
    Array.from({ length: clients }, (_, i) => i),
    warmLoadMs,
    async () => {
      transferIds.push(await api.createTransfer(accounts.next(), benchAmountCents, silentPixKey));
    },
  );
  await waitForStates(context, transferIds, ["completed"], drainWaitMs);
  // Its rows are published before the measured load reads its starting counters.
  await sleep(statsSettleMs);
  context.log(`throughput: warm-up of ${transferIds.length} transfers completed (not metered)`);
}

interface Closable {
  close(): Promise<void>;
}

async function runLoad(context: BenchContext, api: StackClient, accounts: AccountCursor, probe: RawProbe | null): Promise<Load> {
  // Whatever opened is closed, in reverse, however far the load got.
  const opened: Closable[] = [];
  const open = async <T extends Closable>(opening: Promise<T>): Promise<T> => {
    const resource = await opening;
    opened.push(resource);
    return resource;
  };
  try {
    const observer = await open(openObserver(context.cluster.databaseUrl));
    const tables = await open(openTableWrites(context.cluster.databaseUrl));
    const statements = context.statements ? await open(openStatements(context.cluster.databaseUrl)) : null;
    const before = await observer.databaseCounters();
    const tablesBefore = await tables.read();
    await statements?.reset();
    const transferIds: string[] = [];
    const startedAtMs = Date.now();
    context.cpu.begin();
    probe?.start();
    await closedLoop(
      Array.from({ length: clients }, (_, i) => i),
      loadMs,
      async () => {
        transferIds.push(await api.createTransfer(accounts.next(), benchAmountCents, silentPixKey));
      },
    );
    const endedAtMs = Date.now();
    context.log(`throughput: ${transferIds.length} transfers created`);
    await waitForStates(context, transferIds, ["completed"], drainWaitMs);
    // The meter's span and meteredMs end together, after the probe's last UPDATE.
    const probed = probe === null ? null : await probe.stop();
    const drainedAtMs = Date.now();
    const cpu = context.cpu.end();
    context.log(`throughput, load until all completed: ${describeShare(cpu)}`);
    if (probed !== null) {
      const rawMs = cpuMsPerUpdate(probed).toFixed(3);
      context.log(`throughput: ${probed.updates} raw spread UPDATEs beside the load, ${rawMs} ms of backend CPU each`);
    }
    // Backends publish their counters as they exit; give the last ones a moment.
    await sleep(statsSettleMs);
    const after = await observer.databaseCounters();
    const sessions = after.sessions - before.sessions;
    const rowsWritten = after.rowsWritten - before.rowsWritten;
    const probeNote = probed === null ? "" : ` (accounts' include the ${probed.updates} raw UPDATEs beside the load)`;
    context.log(`throughput: rows written per table, per transfer created${probeNote}:`);
    for (const line of describeTableWrites(writesBetween(tablesBefore, await tables.read()), transferIds.length, "transfer"))
      context.log(`  ${line}`);
    if (statements !== null) {
      context.log("throughput: heaviest statements, per transfer created:");
      for (const line of describeStatements(await statements.heaviest(statementsLogged), transferIds.length, "transfer"))
        context.log(`  ${line}`);
    }
    return { transferIds, startedAtMs, endedAtMs, cpu, drainedAtMs, sessions, rowsWritten, probe: probed };
  } finally {
    for (const resource of opened.reverse()) await resource.close();
  }
}

/** Completions per second inside the loaded window (same clock: bench and Postgres share it). */
export interface RawReference {
  rawHoldsPerS: number;
  rawPostgresCpuMs: number;
}

async function completionRows(pool: Pool, load: Load, raw: RawReference): Promise<MetricRow[]> {
  const windowStartMs = load.startedAtMs + warmupMs;
  const { rows } = await pool.query<{ completed: string; p50_ms: number | null }>(
    `SELECT count(*) AS completed,
            percentile_disc(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM updated_at - created_at) * 1000) AS p50_ms
       FROM transfers
      WHERE id = ANY($1::uuid[]) AND state = 'completed'
        AND updated_at >= to_timestamp($2 / 1000.0) AND updated_at < to_timestamp($3 / 1000.0)`,
    [load.transferIds, windowStartMs, load.endedAtMs],
  );
  const completedPerS = Number(rows[0]?.completed ?? 0) / ((load.endedAtMs - windowStartMs) / 1000);
  const loadMsTotal = load.endedAtMs - load.startedAtMs;
  const created = load.transferIds.length;
  // waitForStates saw every transfer completed: each created transfer counts once.
  const meteredMs = load.drainedAtMs - load.startedAtMs;
  const cpuMsPerTransfer = (cores: number): number => (cores * meteredMs) / created;
  // A probe's backend ran inside PostgreSQL's process tree, and its UPDATEs are rows written:
  // neither is the transfers'. What else it costs (its proxy CPU, its WAL, the load it adds to
  // the machine) stays in: a run with it is for its diag rows, not for the targets.
  const postgresMs = (load.cpu.postgresCores * meteredMs - (load.probe?.backendCpuMs ?? 0)) / created;
  const rowsPerTransfer = (load.rowsWritten - (load.probe?.updates ?? 0)) / created;
  const systemCores = load.cpu.postgresCores + load.cpu.proxyCores + load.cpu.workerCores;
  return [
    reported("e2e: transfers accepted (POST)", (created / loadMsTotal) * 1000, "transfers/s"),
    reported("e2e: transfers completed", completedPerS, "transfers/s"),
    reported("e2e: created -> completed, p50 (incl. 50 ms check delay)", Number(rows[0]?.p50_ms ?? Number.NaN), "ms"),
    reported("e2e completed / raw spread hold rate", completedPerS / raw.rawHoldsPerS, "ratio"),
    reported("diag e2e: database connections opened per transfer", load.sessions / created, "connections"),
    reported("cost: PostgreSQL CPU per completed transfer", postgresMs, "ms"),
    atMost(
      "cost: PostgreSQL CPU per completed transfer / raw spread UPDATE",
      postgresMs / raw.rawPostgresCpuMs,
      "ratio",
      postgresCostRatioMax,
    ),
    ...besideRows(load.probe, postgresMs),
    // What the ratio above is made of: a transfer writes many rows (its history, which is its
    // events, the ledger, limits), the raw UPDATE one; per row written the two are comparable.
    atMost("cost: rows written per completed transfer", rowsPerTransfer, "rows", rowsPerTransferMax),
    reported(
      "diag cost: PostgreSQL CPU per row a transfer writes / raw UPDATE CPU",
      postgresMs / rowsPerTransfer / raw.rawPostgresCpuMs,
      "ratio",
    ),
    reported("cost: Worker CPU per completed transfer (workerd)", cpuMsPerTransfer(load.cpu.workerCores), "ms"),
    reported("diag cost: dev proxy CPU per completed transfer", cpuMsPerTransfer(load.cpu.proxyCores), "ms"),
    reported(
      "cost: transfers per CPU-second (PostgreSQL + proxy + workerd)",
      created / ((systemCores * meteredMs) / 1000),
      "transfers/s per core",
    ),
  ];
}

/**
 * The reference of the target runs back to back in the ledger section, the Worker idle; each
 * statement of a transfer reaches a backend that slept since its last one. The same UPDATE,
 * paced beside the load, sleeps between its statements too.
 */
function besideRows(probe: RawProbeResult | null, postgresMs: number): MetricRow[] {
  if (probe === null) return [];
  const rawBesideMs = cpuMsPerUpdate(probe);
  return [
    reported(`diag cost: PostgreSQL CPU per raw spread UPDATE beside the load, one every ${probePaceMs} ms`, rawBesideMs, "ms"),
    reported("diag cost: PostgreSQL CPU per completed transfer / raw spread UPDATE beside the load", postgresMs / rawBesideMs, "ratio"),
  ];
}

async function openProbe(context: BenchContext): Promise<RawProbe | null> {
  if (!context.rawBeside) return null;
  const anySpreadAccount = await seedSpreadAccounts(context);
  return RawProbe.open(benchPool(context.cluster, 1, "bench-raw-probe"), anySpreadAccount, probePaceMs);
}

export async function measureThroughput(context: BenchContext, root: string, raw: RawReference): Promise<MetricRow[]> {
  const secrets = benchSecrets();
  const ids = accountIds("bench-e2e", accounts);
  const pool = benchPool(context.cluster, 1, "bench-e2e-watch");
  try {
    await seedAccounts(pool, ids);
    // The seeding's rows must not count in the load's: published now, not when the idle
    // connection gets round to it during the load.
    await publishStats(pool);
    const stack = await startWorkerStack(root, context.workDir, "throughput", stackVars(context.cluster, secrets, timings));
    context.own(stack.stop);
    context.cpu.watchWorker(stack.pid);
    try {
      const api = new StackClient(stack.baseUrl, secrets);
      const accountsInTurn = accountCursor(ids);
      // Opened (and its spread accounts seeded) before the warm-up, whose settling publishes
      // their rows before the load's starting counters are read.
      const probe = await openProbe(context);
      try {
        await warmUp(context, api, accountsInTurn);
        return await completionRows(pool, await runLoad(context, api, accountsInTurn, probe), raw);
      } finally {
        await probe?.close();
      }
    } finally {
      context.cpu.watchWorker(undefined);
      await stack.stop();
      context.log(`throughput: wrangler log at ${path.basename(stack.logFile)}`);
    }
  } finally {
    await pool.end();
  }
}
