// `npm run demo`: one Pix cash-out against the running `npm start`, end to end. Creates and funds
// a demo account (ops API), signs a client JWT, sends R$ 25,00 to a CPF key on the sandbox
// provider, follows the transfer to a final state, and shows the balance.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readDevVars } from "./lib/dev-vars.ts";
import { mintAccountToken } from "./lib/jwt.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const accountId = "demo-account";
const seedAmountCents = 100_000;
const tokenLifetimeSeconds = 3_600;
const pollTimeoutMs = 30_000;
const pollIntervalMs = 500;
const terminalStates = new Set(["completed", "compensated", "needs_review"]);

interface Transfer {
  id: string;
  state: string;
  failure_reason: string | null;
  failure_code: string | null;
}

const devVars = await readDevVars(root).catch(() => new Map<string, string>());
/** The environment wins, as it does for `npm start`. */
function setting(name: string): string {
  const value = process.env[name] ?? devVars.get(name);
  if (!value) throw new Error(`${name} is neither in the environment nor in .dev.vars (run npm start once first)`);
  return value;
}

const baseUrl = `http://127.0.0.1:${process.env.PORT || "8787"}`;

interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Polling calls stay quiet; their changes of state are what gets printed. */
  quiet?: boolean;
}

async function call<T>(method: string, urlPath: string, token: string, options: CallOptions = {}): Promise<T> {
  const { body, headers = {}, quiet = false } = options;
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${urlPath}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
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

async function followTransfer(id: string, token: string): Promise<Transfer> {
  const deadline = Date.now() + pollTimeoutMs;
  let lastState = "";
  for (;;) {
    const transfer = await call<Transfer>("GET", `/v1/transfers/${id}`, token, { quiet: true });
    if (transfer.state !== lastState) console.log(`  state: ${transfer.state}`);
    lastState = transfer.state;
    if (terminalStates.has(transfer.state) || Date.now() >= deadline) return transfer;
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
}

async function demo(): Promise<void> {
  const opsToken = setting("OPS_TOKEN");
  const clientToken = mintAccountToken(accountId, setting("JWT_SECRET"), tokenLifetimeSeconds);

  await call("PUT", `/ops/accounts/${accountId}`, opsToken);
  // A fixed key: running the demo again does not credit again.
  await call("POST", `/ops/accounts/${accountId}/credits`, opsToken, {
    body: { amount_cents: seedAmountCents, idempotency_key: "demo-seed" },
  });

  const created = await call<Transfer>("POST", "/v1/transfers", clientToken, {
    body: { amount_cents: 2500, pix_key: "100.000.001-08", pix_key_type: "cpf", description: "demo" },
    headers: { "idempotency-key": `demo-${randomUUID()}` },
  });
  console.log(`  transfer ${created.id}`);
  console.log(`GET /v1/transfers/${created.id} until it settles:`);
  const final = await followTransfer(created.id, clientToken);
  if (!terminalStates.has(final.state)) console.log(`  still ${final.state} after ${pollTimeoutMs / 1000} s (the saga keeps going)`);
  if (final.failure_reason) console.log(`  failure: ${final.failure_reason}${final.failure_code ? ` (${final.failure_code})` : ""}`);

  console.log(JSON.stringify(await call("GET", "/v1/balance", clientToken), null, 2));
}

try {
  await demo();
} catch (error) {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
