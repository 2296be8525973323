// On Cloudflare with Neon the database has cores of its own; here the load generator, the
// WebSocket proxy and workerd share this machine's two with it. A PostgreSQL process woken by a
// released row lock or a finished WAL fsync then waits behind them for a core (1.4-1.8 server
// processes runnable without one, on average, during the hot-row load), and on one hot row,
// where every commit waits for the previous one, those waits and not the database set the rate.
// The bench therefore runs the server's processes under SCHED_FIFO: first in line for the cores
// it shares, the nearest a 2-core machine comes to a database machine of its own (the others
// still take its cores while it sleeps). The kernel keeps 5 % of each second for everything
// else (sched_rt_runtime_us), and the bench measures the hot row at normal priority too, so
// what the priority changes is in the results.
import { execFileSync } from "node:child_process";
import { descendantsOf, listProcesses } from "../../scripts/lib/proc-table.ts";

export type ServerPriority = "realtime" | "normal";

const chrtArgs: Record<ServerPriority, string[]> = {
  realtime: ["--fifo", "1"],
  normal: ["--other", "0"],
};

/**
 * Sets the policy of the postmaster first (backends forked after it inherit the policy), then
 * of every server process already running. Throws when the kernel refuses (not root, no
 * CAP_SYS_NICE), possibly with some processes already changed: callers put them back.
 */
export function setServerPriority(postmasterPid: number, priority: ServerPriority): void {
  const set = (pid: number): void => {
    execFileSync("chrt", ["--pid", ...chrtArgs[priority], String(pid)], { stdio: ["ignore", "ignore", "pipe"] });
  };
  set(postmasterPid);
  for (const child of descendantsOf(postmasterPid, listProcesses())) {
    try {
      set(child.pid);
    } catch (error) {
      // A backend that exited between the listing and the call: nothing left to schedule.
      if (listProcesses().some((entry) => entry.pid === child.pid && entry.state !== "Z")) throw error;
    }
  }
}

/** Best effort, for error paths: the error being handled matters more than this one. */
function trySetServerPriority(postmasterPid: number, priority: ServerPriority): void {
  try {
    setServerPriority(postmasterPid, priority);
  } catch {
    // The report already says what went wrong first.
  }
}

/** Realtime if the kernel allows it, else normal (every process put back) with the reason. */
export function raiseServerPriority(postmasterPid: number): { priority: ServerPriority; note: string } {
  try {
    setServerPriority(postmasterPid, "realtime");
    return { priority: "realtime", note: "PostgreSQL under SCHED_FIFO priority 1 (first in line for a core)" };
  } catch (error) {
    trySetServerPriority(postmasterPid, "normal");
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { priority: "normal", note: `PostgreSQL at normal priority: chrt refused (${reason})` };
  }
}

export interface PrioritisedServer {
  postgresPid: number;
  serverPriority: ServerPriority;
}

/**
 * Runs `work` with the server back at normal priority, then raises it again; a no-op wrapper
 * when the bench could not raise it. For what the priority must not flatter: a realtime
 * process woken on an idle core waits for that core to wake (an interrupt to a halted virtual
 * CPU), so a lone commit's measured flush grows by about a third.
 */
export async function atNormalPriority<T>(cluster: PrioritisedServer, work: () => Promise<T>): Promise<T> {
  if (cluster.serverPriority !== "realtime") return work();
  let result: T;
  try {
    setServerPriority(cluster.postgresPid, "normal");
    result = await work();
  } catch (error) {
    trySetServerPriority(cluster.postgresPid, "realtime");
    throw error;
  }
  setServerPriority(cluster.postgresPid, "realtime");
  return result;
}
