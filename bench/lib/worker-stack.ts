// The real Worker for the end-to-end metrics: `wrangler dev` (workerd: the Worker, the
// TransferSaga objects and the sandbox) against the bench's PostgreSQL, started like
// scripts/lib/wrangler-dev.ts does for `npm start` but with its log in a file: the bench's
// table must stay readable, and a terminal drawing thousands of request lines costs CPU.
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import path from "node:path";
import { wranglerVarArgs } from "../../scripts/lib/contract-vars.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { stopGroup } from "../../scripts/lib/process-group.ts";
import { waitHealthy } from "../../scripts/lib/wait-healthy.ts";
import { wranglerDevLaunch } from "../../scripts/lib/wrangler-dev.ts";

export interface WorkerStack {
  baseUrl: string;
  /** The wrangler launcher, leader of the process group that also holds workerd. */
  pid: number;
  logFile: string;
  stop(): Promise<void>;
}

const healthTimeoutMs = 90_000;
const stopGraceMs = 10_000;

export async function startWorkerStack(
  root: string,
  workDir: string,
  name: string,
  vars: ReadonlyMap<string, string>,
): Promise<WorkerStack> {
  const port = await freePort();
  const logFile = path.join(workDir, `wrangler-${name}.log`);
  const logFd = openSync(logFile, "a");
  const launch = wranglerDevLaunch({
    root,
    port,
    persistDir: path.join(workDir, `wrangler-state-${name}`),
    extraArgs: wranglerVarArgs(vars),
  });
  // Its own process group: stopping the group also stops the workerd it spawns.
  const child = spawn(launch.command, launch.args, { cwd: root, detached: true, stdio: ["ignore", logFd, logFd], env: launch.env });
  closeSync(logFd);
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not spawn wrangler dev");
  const stop = (): Promise<void> => stopGroup(pid, stopGraceMs);
  const baseUrl = `http://127.0.0.1:${port}`;
  const died = new AbortController();
  child.once("exit", () => died.abort());
  try {
    await waitHealthy(`${baseUrl}/healthz`, healthTimeoutMs, died.signal);
  } catch (error) {
    await stop();
    throw new Error(
      `wrangler dev (${name}) did not become healthy; see ${logFile}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { baseUrl, pid, logFile, stop };
}
