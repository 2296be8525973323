// `npm start` run from the outside, as the smoke test, the browser tests and the events crash
// test each do: spawned in its own process group (like a terminal's foreground job, so one
// signal reaches npm, the start script and everything it spawned), then its `ready: <url>` line.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

export function spawnNpmStart(root: string, environment: Record<string, string>): ChildProcess {
  // npm_execpath is the npm running this script; fall back to PATH when run directly.
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli ? [process.execPath, [npmCli, "start"]] : ["npm", ["start"]];
  return spawn(command, args, {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...environment },
  });
}

/** The URL of the `ready:` line; every line of output is passed to `onLine` on the way. */
export function waitForReadyLine(child: ChildProcess, timeoutMs: number, onLine: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no "ready:" line within ${timeoutMs} ms`)), timeoutMs);
    const read = (line: string): void => {
      onLine(line);
      const match = /^ready: (http\S+)/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    if (child.stdout) createInterface({ input: child.stdout }).on("line", read);
    if (child.stderr) createInterface({ input: child.stderr }).on("line", read);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited before ready (${signal ?? `code ${code}`})`));
    });
  });
}
