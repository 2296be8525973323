// A read of the Linux process table (/proc), for checks that a run left no process behind.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessEntry {
  pid: number;
  parentPid: number;
  /** Single-letter state from /proc/<pid>/stat; "Z" is a zombie: exited, not yet reaped. */
  state: string;
  /** Start time in clock ticks since boot: with pid, it tells a reused pid from the original. */
  startTicks: number;
  commandLine: string;
}

export const processKey = (entry: ProcessEntry): string => `${entry.pid}@${entry.startTicks}`;

function readEntry(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name sits in parentheses and may itself contain spaces or parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    return { pid, parentPid: Number(fields[1]), state: fields[0] ?? "?", startTicks: Number(fields[19]), commandLine };
  } catch {
    return undefined; // It exited while we were reading.
  }
}

export function listProcesses(): ProcessEntry[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readEntry(Number(name)))
    .filter((entry): entry is ProcessEntry => entry !== undefined);
}

/** Every process below `rootPid` (children, grandchildren, ...), whatever its process group. */
export function descendantsOf(rootPid: number, table: ProcessEntry[]): ProcessEntry[] {
  const found: ProcessEntry[] = [];
  const frontier = [rootPid];
  while (frontier.length > 0) {
    const parent = frontier.pop();
    for (const entry of table) {
      if (entry.parentPid === parent) {
        found.push(entry);
        frontier.push(entry.pid);
      }
    }
  }
  return found;
}

/** Live (not zombie) processes of the table that match one of `keys`. */
export function stillRunning(keys: ReadonlySet<string>, table: ProcessEntry[]): ProcessEntry[] {
  return table.filter((entry) => keys.has(processKey(entry)) && entry.state !== "Z");
}
