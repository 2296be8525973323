// The system under test: a real `npm start` on a free port with a throwaway data directory and
// short saga timings, its output kept in a log file. Stopping it is a Ctrl-C to its process
// group, then a check that nothing it started (postgres, wrangler, workerd) is still running.
import type { ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../lib/free-port.ts";
import { spawnNpmStart, waitForReadyLine } from "../lib/npm-start.ts";
import { descendantsOf, listProcesses, type ProcessEntry, processKey, stillRunning } from "../lib/proc-table.ts";
import { groupAlive } from "../lib/process-group.ts";

const readyTimeoutMs = 120_000;
const exitTimeoutMs = 30_000;
const snapshotIntervalMs = 250;

export interface Stack {
  baseUrl: string;
  /** Stops everything; returns what went wrong (empty when it stopped cleanly). */
  stop(): Promise<string[]>;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export async function startStack(root: string, environment: Record<string, string>, logPath: string): Promise<Stack> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "pix-browser-"));
  const port = await freePort();
  const log = createWriteStream(logPath);
  const child = spawnNpmStart(root, { ...environment, PORT: String(port), PIX_DATA_DIR: dataDir });
  const groupId = child.pid;
  if (groupId === undefined) throw new Error("could not spawn npm start");
  const started = new Map<string, ProcessEntry>();
  const snapshots = setInterval(() => {
    for (const entry of descendantsOf(groupId, listProcesses())) started.set(processKey(entry), entry);
  }, snapshotIntervalMs);

  const stop = async (): Promise<string[]> => {
    const problems: string[] = [];
    clearInterval(snapshots);
    try {
      process.kill(-groupId, "SIGINT");
    } catch {
      // Already gone.
    }
    if (!(await waitForExit(child, exitTimeoutMs))) problems.push(`npm start still running ${exitTimeoutMs} ms after SIGINT`);
    const table = listProcesses();
    const left = stillRunning(new Set(started.keys()), table).concat(
      table.filter((entry) => entry.state !== "Z" && entry.commandLine.includes(dataDir) && !started.has(processKey(entry))),
    );
    for (const entry of left) {
      problems.push(`left behind: ${entry.pid} ${entry.commandLine}`);
      try {
        process.kill(entry.pid, "SIGKILL");
      } catch {
        // Exited meanwhile.
      }
    }
    if (groupAlive(groupId)) {
      try {
        process.kill(-groupId, "SIGKILL");
      } catch {
        // Exited meanwhile.
      }
    }
    log.end();
    await rm(dataDir, { recursive: true, force: true });
    return problems;
  };

  try {
    const baseUrl = await waitForReadyLine(child, readyTimeoutMs, (line) => log.write(`${line}\n`));
    return { baseUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
