// `npm run smoke:start`: `npm start` from the outside, as a newcomer would use it. It must print
// `ready: <url>` with /healthz at 200, and after a Ctrl-C (SIGINT to its whole process group,
// as a terminal sends it) exit and leave no process behind: no postgres, wrangler or workerd.
// It runs on a free port with its own data directory, so it never touches the dev database,
// and with a WEBHOOK_SECRET of its own in the environment, as black-box suites run it: a
// `returned@sandbox.test` transfer must still get its money back through the sandbox's webhook.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readDevVars } from "./lib/dev-vars.ts";
import { freePort, isPortFree } from "./lib/free-port.ts";
import { spawnNpmStart, waitForReadyLine } from "./lib/npm-start.ts";
import { descendantsOf, listProcesses, type ProcessEntry, processKey, stillRunning } from "./lib/proc-table.ts";
import { expectMoneyBack } from "./lib/returned-money.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const readyTimeoutMs = 90_000;
const exitTimeoutMs = 30_000;
const snapshotIntervalMs = 250;

const log = (line: string): void => console.log(`[smoke] ${line}`);

/** Everything `npm start` spawned, as seen while it ran (pid@start-time → command line). */
const started = new Map<string, string>();

function recordDescendants(rootPid: number): void {
  for (const entry of descendantsOf(rootPid, listProcesses())) started.set(processKey(entry), entry.commandLine);
}

function waitForExit(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start still running ${exitTimeoutMs} ms after SIGINT`)), exitTimeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(signal ?? code ?? "unknown");
    });
  });
}

/** Processes still alive that we started, or that work on the smoke data directory. */
function leftovers(dataDir: string): ProcessEntry[] {
  const table = listProcesses();
  const ours = new Set(stillRunning(new Set(started.keys()), table).map(processKey));
  for (const entry of table) {
    if (entry.state !== "Z" && entry.pid !== process.pid && entry.commandLine.includes(dataDir)) ours.add(processKey(entry));
  }
  return table.filter((entry) => ours.has(processKey(entry)));
}

function requireStarted(pattern: RegExp, what: string): void {
  if (![...started.values()].some((commandLine) => pattern.test(commandLine))) {
    throw new Error(`saw no ${what} process under npm start, so the leftover check would prove nothing`);
  }
}

async function smoke(port: number, dataDir: string): Promise<void> {
  const startedAtMs = Date.now();
  // Not .dev.vars' key: the sandbox must sign with this one for its webhooks to be accepted.
  const webhookSecret = `whsec_${randomBytes(32).toString("base64")}`;
  const child = spawnNpmStart(root, { PORT: String(port), PIX_DATA_DIR: dataDir, WEBHOOK_SECRET: webhookSecret });
  const childPid = child.pid;
  if (childPid === undefined) throw new Error("could not spawn npm start");
  const snapshots = setInterval(() => recordDescendants(childPid), snapshotIntervalMs);
  try {
    const url = await waitForReadyLine(child, readyTimeoutMs, (line) => console.log(`  | ${line}`));
    log(`ready after ${Date.now() - startedAtMs} ms: ${url}`);
    if (url !== `http://127.0.0.1:${port}`) throw new Error(`ready line names ${url}, expected http://127.0.0.1:${port}`);
    const health = await fetch(`${url}/healthz`);
    if (health.status !== 200) throw new Error(`/healthz answered ${health.status}`);
    log(`/healthz 200 ${JSON.stringify(await health.json())}`);
    const devVars = await readDevVars(root);
    const secret = (name: string): string => process.env[name] ?? devVars.get(name) ?? "";
    const returnMs = await expectMoneyBack(url, { opsToken: secret("OPS_TOKEN"), jwtSecret: secret("JWT_SECRET") });
    log(`with WEBHOOK_SECRET from the environment, returned@sandbox.test got its money back in ${returnMs} ms`);
    recordDescendants(childPid);
    requireStarted(/\/postgres -D /, "postgres");
    requireStarted(/\/workerd /, "workerd");
    requireStarted(/wrangler/, "wrangler");

    const stopAtMs = Date.now();
    process.kill(-childPid, "SIGINT");
    const exit = await waitForExit(child);
    log(`npm start exited (${exit}) ${Date.now() - stopAtMs} ms after SIGINT`);
    // npm re-raises the SIGINT its script ended on, as a shell expects of a Ctrl-C'd job.
    if (exit !== 0 && exit !== "SIGINT") throw new Error(`npm start exited with ${exit} after SIGINT, expected 0 or SIGINT`);
  } finally {
    clearInterval(snapshots);
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-childPid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }
  const left = leftovers(dataDir);
  if (left.length > 0) {
    throw new Error(`processes left behind:\n${left.map((entry) => `  ${entry.pid} ${entry.commandLine}`).join("\n")}`);
  }
  log(`no process left behind (${started.size} processes were started: postgres, wrangler, workerd, ...)`);
  // A clean shutdown removes postmaster.pid; a killed postgres leaves it.
  if (existsSync(path.join(dataDir, "postgres", "postmaster.pid"))) {
    throw new Error("postmaster.pid remains: postgres did not stop cleanly");
  }
  if (!(await isPortFree(port))) throw new Error(`port ${port} is still in use`);
}

/** After a failure, end whatever we started that is still running, by pid. */
function killLeftovers(dataDir: string): void {
  for (const entry of leftovers(dataDir)) {
    try {
      process.kill(entry.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

const dataDir = await mkdtemp(path.join(tmpdir(), "pix-smoke-"));
let failure: string | undefined;
try {
  await smoke(await freePort(), dataDir);
} catch (error) {
  failure = error instanceof Error ? error.message : String(error);
  killLeftovers(dataDir);
}
await rm(dataDir, { recursive: true, force: true });
if (failure === undefined) {
  log("npm start: ready, healthy, and stopped cleanly on SIGINT");
  console.log("1 passed, 0 failed");
} else {
  console.error(`[smoke] FAILED: ${failure}`);
  console.log("0 passed, 1 failed");
  process.exitCode = 1;
}
