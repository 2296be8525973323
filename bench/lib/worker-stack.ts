// The real Worker for the end-to-end metrics: `wrangler dev` (workerd: the Worker, the
// TransferSaga objects and the sandbox) against the bench's PostgreSQL, started like
// scripts/lib/wrangler-dev.ts does for `npm start` but with its log in a file: the bench's
// table must stay readable, and a terminal drawing thousands of request lines costs CPU.
import { spawn } from "node:child_process";
import { closeSync, openSync, realpathSync } from "node:fs";
import path from "node:path";
import { wranglerVarArgs } from "../../scripts/lib/contract-vars.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { stopGroup } from "../../scripts/lib/process-group.ts";
import { waitHealthy } from "../../scripts/lib/wait-healthy.ts";

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
  const launcher = realpathSync(path.join(root, "node_modules/.bin/wrangler"));
  const args = [
    launcher,
    "dev",
    // wrangler.toml's top level is production; local runs use its [env.local].
    "--env",
    "local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--show-interactive-dev-session=false",
    "--persist-to",
    path.join(workDir, `wrangler-state-${name}`),
    ...wranglerVarArgs(vars),
  ];
  const child = spawn(process.execPath, args, {
    cwd: root,
    // Its own process group: stopping the group also stops the workerd it spawns.
    detached: true,
    stdio: ["ignore", logFd, logFd],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      WRANGLER_SEND_ERROR_REPORTS: "false",
      WRANGLER_NO_SKILLS_UPDATE_PROMPTS: "true",
      BROWSER: "none",
    },
  });
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
