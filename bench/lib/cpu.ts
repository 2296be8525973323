// Where the CPU went during a measurement: the PostgreSQL server (all its processes), the
// WebSocket proxy, this load generator, and everything else on the machine (other people's
// work on a shared box). With 2 cores, a saturated client or proxy caps every variant alike
// and squeezes ratios toward 1; these numbers say whether the database was the bottleneck.
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";

/** USER_HZ: Linux reports process times in 1/100 s on every architecture Node supports. */
const ticksPerS = 100;

interface ProcTimes {
  parentPid: number;
  /** utime + stime, in ticks. */
  ownTicks: number;
  /** cutime + cstime: children that exited and were reaped. */
  reapedChildTicks: number;
}

function readProc(pid: number): ProcTimes | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    // After the command name: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14).
    return {
      parentPid: fields[1] ?? 0,
      ownTicks: (fields[11] ?? 0) + (fields[12] ?? 0),
      reapedChildTicks: (fields[13] ?? 0) + (fields[14] ?? 0),
    };
  } catch {
    return undefined;
  }
}

/**
 * One process's own time on a CPU so far, ms, to the nanosecond (/proc/<pid>/schedstat; its
 * /proc stat counts 10 ms ticks): one PostgreSQL backend's, over batches of a few transfers.
 */
export function processRunMs(pid: number): number {
  const runNs = Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
  if (!Number.isFinite(runNs)) throw new Error(`no schedstat for process ${pid}`);
  return runNs / 1e6;
}

/**
 * A process and its children, the exited ones included (the parent reaped them); with `deep`,
 * grandchildren too (wrangler's launcher runs the CLI, which runs workerd).
 */
function treeTicks(rootPid: number, deep = false): number {
  const root = readProc(rootPid);
  if (!root) return 0;
  const table = new Map<number, ProcTimes>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readProc(Number(name));
    if (entry) table.set(Number(name), entry);
  }
  let ticks = root.ownTicks + root.reapedChildTicks;
  const frontier = [rootPid];
  while (frontier.length > 0) {
    const parent = frontier.pop();
    for (const [pid, entry] of table) {
      if (entry.parentPid !== parent) continue;
      ticks += entry.ownTicks;
      if (deep) {
        ticks += entry.reapedChildTicks;
        frontier.push(pid);
      }
    }
  }
  return ticks;
}

function machineBusyTicks(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const [, user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).map(Number);
  return user + nice + system + irq + softirq + steal;
}

interface Snapshot {
  atMs: number;
  postgresTicks: number;
  proxyTicks: number;
  workerTicks: number;
  selfMicros: number;
  machineTicks: number;
}

export interface CpuShare {
  /** Cores busy on average (1.0 = one core fully used). */
  postgresCores: number;
  proxyCores: number;
  /** wrangler and workerd, when a Worker stack is being metered. */
  workerCores: number;
  clientCores: number;
  otherCores: number;
  machineCores: number;
}

export class CpuMeter {
  private readonly postgresPid: number;
  private readonly proxyPid: number;
  private workerPid: number | undefined;
  private start: Snapshot | undefined;

  constructor(postgresPid: number, proxyPid: number) {
    this.postgresPid = postgresPid;
    this.proxyPid = proxyPid;
  }

  /** Meters a Worker stack too: `pid` leads wrangler and its workerd. */
  watchWorker(pid: number | undefined): void {
    this.workerPid = pid;
  }

  begin(): void {
    this.start = this.snapshot();
  }

  end(): CpuShare {
    const start = this.start;
    if (!start) throw new Error("CpuMeter.end() before begin()");
    const now = this.snapshot();
    const seconds = (now.atMs - start.atMs) / 1000;
    const cores = (ticks: number): number => ticks / ticksPerS / seconds;
    const postgresCores = cores(now.postgresTicks - start.postgresTicks);
    const proxyCores = cores(now.proxyTicks - start.proxyTicks);
    const workerCores = cores(now.workerTicks - start.workerTicks);
    const clientCores = (now.selfMicros - start.selfMicros) / 1e6 / seconds;
    const machineCores = cores(now.machineTicks - start.machineTicks);
    const otherCores = Math.max(0, machineCores - postgresCores - proxyCores - workerCores - clientCores);
    return { postgresCores, proxyCores, workerCores, clientCores, otherCores, machineCores };
  }

  private snapshot(): Snapshot {
    const usage = process.cpuUsage();
    return {
      atMs: performance.now(),
      postgresTicks: treeTicks(this.postgresPid),
      proxyTicks: treeTicks(this.proxyPid),
      workerTicks: this.workerPid === undefined ? 0 : treeTicks(this.workerPid, true),
      selfMicros: usage.user + usage.system,
      machineTicks: machineBusyTicks(),
    };
  }
}

export const machineCores = cpus().length;

export function describeShare(share: CpuShare): string {
  const f = (cores: number): string => cores.toFixed(2);
  const worker = share.workerCores > 0 ? `, workerd ${f(share.workerCores)}` : "";
  return `cpu cores busy: postgres ${f(share.postgresCores)}, ws proxy ${f(share.proxyCores)}${worker}, bench client ${f(share.clientCores)}, others ${f(share.otherCores)} (machine ${f(share.machineCores)} of ${machineCores})`;
}
