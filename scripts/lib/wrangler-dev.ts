// Runs `wrangler dev` for `npm start`: local mode, fixed address, no prompts, no telemetry,
// in its own process group so stopping it also stops the workerd processes it spawned.
import { spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import path from "node:path";
import { redactUrlSecrets } from "../../src/lib/redact.ts";
import { pipeLines } from "./prefixed-lines.ts";
import { stopGroup } from "./process-group.ts";

export interface WranglerDevOptions {
  root: string;
  port: number;
  /** Durable Object storage lives next to the Postgres data, so resetting one resets both. */
  persistDir: string;
  /** Extra `wrangler dev` arguments, e.g. `--var KEY:VALUE` overrides. */
  extraArgs: string[];
}

export interface WranglerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface WranglerDev {
  pid: number;
  /** Settles when the wrangler launcher exits, for whatever reason. */
  exited: Promise<WranglerExit>;
  stop(): Promise<void>;
}

const stopGraceMs = 10_000;

/** The launch `npm start` and the bench share: the command, its arguments and environment. */
export function wranglerDevLaunch(options: WranglerDevOptions): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  // Run the launcher with this very Node (24) rather than whatever `node` PATH finds first.
  const launcher = realpathSync(path.join(options.root, "node_modules/.bin/wrangler"));
  const args = [
    launcher,
    "dev",
    // wrangler.toml's top level is production; local runs use its [env.local].
    "--env",
    "local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(options.port),
    "--show-interactive-dev-session=false",
    "--persist-to",
    options.persistDir,
    ...options.extraArgs,
  ];
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    WRANGLER_NO_SKILLS_UPDATE_PROMPTS: "true",
    BROWSER: "none",
  };
  return { command: process.execPath, args, env };
}

export function startWranglerDev(options: WranglerDevOptions): WranglerDev {
  const launch = wranglerDevLaunch(options);
  // Its own process group (detached), and no stdin: wrangler can never wait on a prompt.
  const child = spawn(launch.command, launch.args, {
    cwd: options.root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: launch.env,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not spawn wrangler dev");
  // wrangler's own "Ready on <url>" comes before /healthz answers, and it says "updated and
  // ready" after each reload; reworded so the single `ready` line people and scripts look for
  // is ours. Its request lines show each URL whole: Efí's webhook `hmac` is cut out of them.
  const rewrite = (line: string): string =>
    redactUrlSecrets(line.replace(/\bReady on\b/, "listening on").replace(/\bupdated and ready\b/, "updated"));
  pipeLines(child.stdout, process.stdout, "[wrangler] ", rewrite);
  pipeLines(child.stderr, process.stderr, "[wrangler] ", rewrite);
  const exited = new Promise<WranglerExit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  return { pid, exited, stop: () => stopGroup(pid, stopGraceMs) };
}
