// Starts the WebSocket proxy in its own Node process and stops it by its pid.
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export interface WsProxyProcess {
  /** host:port, the value of NEON_WS_PROXY. */
  address: string;
  pid: number;
  stop(): Promise<void>;
}

const childEntry = path.join(path.dirname(fileURLToPath(import.meta.url)), "ws-proxy-child.ts");
const startTimeoutMs = 10_000;
const stopGraceMs = 5_000;

export async function startWsProxyProcess(): Promise<WsProxyProcess> {
  const child = spawn(process.execPath, [childEntry], { stdio: ["pipe", "pipe", "inherit"] });
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not spawn the WebSocket proxy");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("WebSocket proxy did not start")), startTimeoutMs);
    createInterface({ input: child.stdout }).once("line", (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { address: string }).address);
    });
    child.once("exit", (code) => reject(new Error(`WebSocket proxy exited (code ${code})`)));
  });
  return {
    address,
    pid,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), stopGraceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
