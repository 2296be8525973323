// A small client for the running `npm start`: settings from the environment or .dev.vars (the
// environment wins, as it does for `npm start`) and JSON calls with a bearer token.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sleep } from "../../src/lib/sleep.ts";
import { readDevVars } from "./dev-vars.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const devVars = await readDevVars(root).catch(() => new Map<string, string>());

export function setting(name: string): string {
  const value = process.env[name] ?? devVars.get(name);
  if (!value) throw new Error(`${name} is neither in the environment nor in .dev.vars (run npm start once first)`);
  return value;
}

export const baseUrl = `http://127.0.0.1:${process.env.PORT || "8787"}`;

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Polling calls stay quiet; their changes of state are what gets printed. */
  quiet?: boolean;
}

export async function call<T>(method: string, urlPath: string, token: string | null, options: CallOptions = {}): Promise<T> {
  const { body, headers = {}, quiet = false } = options;
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${urlPath}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        // /ops/* refuses a write not labelled JSON (415), a body or none.
        ...(method === "GET" ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch (error) {
    throw new Error(`${method} ${urlPath}: no answer from ${baseUrl} (is npm start running?): ${String(error)}`);
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${urlPath} answered ${response.status}: ${text}`);
  if (!quiet) console.log(`${method} ${urlPath} → ${response.status}`);
  return JSON.parse(text) as T;
}

export const terminalStates = new Set(["completed", "compensated", "needs_review"]);

export interface Transfer {
  id: string;
  state: string;
  failure_reason: string | null;
  failure_code: string | null;
}

/** Polls a transfer until it reaches a final state or `timeoutMs` passes; prints each new state. */
export async function followTransfer(
  id: string,
  token: string,
  timeoutMs: number,
  pollIntervalMs: number,
  print = true,
): Promise<Transfer> {
  const deadline = Date.now() + timeoutMs;
  let lastState = "";
  for (;;) {
    const transfer = await call<Transfer>("GET", `/v1/transfers/${id}`, token, { quiet: true });
    if (print && transfer.state !== lastState) console.log(`  state: ${transfer.state}`);
    lastState = transfer.state;
    if (terminalStates.has(transfer.state) || Date.now() >= deadline) return transfer;
    await sleep(pollIntervalMs);
  }
}
