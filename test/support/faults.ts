// The fault toolbox for tests inside workerd: database faults through the fault proxy's control
// endpoint (latency, blackhole, reset, a statement cut before it runs, a reply lost after its
// commit), backend kills, Durable Object aborts and evictions, alarms fired twice, provider
// outages and every sandbox misbehaviour. Each fault is tallied for `npm run chaos`.
// Database faults need FAULT_CONTROL_URL, which only the chaos project binds (vitest.config.ts).
import { abortAllDurableObjects, env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import type { TransferSaga } from "../../src/saga-object.ts";
import { call } from "./api.ts";

declare global {
  namespace Cloudflare {
    interface Env {
      /** The fault proxy's control endpoint (chaos project only). */
      FAULT_CONTROL_URL?: string;
    }
  }
}

/**
 * Saga objects connect as pix-saga, API requests as pix-api, the sweeper as pix-cashout, the
 * console as pix-console; tests (and the invariant checker) as pix-test, which no fault touches.
 */
export const sagaConnections = ["pix-saga"] as const;
export const appConnections = ["pix-saga", "pix-api", "pix-cashout", "pix-console"] as const;

export type DbFault =
  | { kind: "latency"; durationMs: number; latencyMs: number; applicationNames?: readonly string[] }
  | { kind: "blackhole"; durationMs: number; endWith?: "flush" | "reset"; applicationNames?: readonly string[] }
  | { kind: "reset"; durationMs: number; applicationNames?: readonly string[] }
  | {
      kind: "cut_before" | "drop_reply";
      statementPattern: string;
      count: number;
      durationMs?: number;
      applicationNames?: readonly string[];
    };

function controlUrl(): string | null {
  const url = env.FAULT_CONTROL_URL;
  return url === undefined || url === "" ? null : url;
}

function requireControlUrl(): string {
  const url = controlUrl();
  if (url === null) throw new Error("database faults need FAULT_CONTROL_URL: run this file in the chaos project");
  return url;
}

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${requireControlUrl()}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer: unknown = await response.json();
  if (!response.ok) throw new Error(`fault control ${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Arms a database fault at the fault proxy; it ends by itself after its duration (or count). */
export async function injectDbFault(fault: DbFault): Promise<void> {
  const statementFault = fault.kind === "cut_before" || fault.kind === "drop_reply";
  await control("POST", "/faults", {
    kind: fault.kind,
    duration_ms: fault.durationMs ?? 30_000,
    application_names: fault.applicationNames ?? sagaConnections,
    ...(fault.kind === "latency" ? { latency_ms: fault.latencyMs } : {}),
    ...(fault.kind === "blackhole" && fault.endWith ? { end_with: fault.endWith } : {}),
    ...(statementFault ? { statement_pattern: fault.statementPattern, count: fault.count } : {}),
  });
}

/** Ends every database fault now. */
export async function clearDbFaults(): Promise<void> {
  await control("DELETE", "/faults");
}

/** Faults the proxy actually injected so far, by kind (e.g. drop_reply, reset_connections). */
export async function dbFaultsInjected(): Promise<Record<string, number>> {
  const answer = (await control("GET", "/faults")) as { injected: Record<string, number> };
  return answer.injected;
}

/** The saga objects' connections open through the fault proxy right now. */
export async function sagaConnectionPorts(): Promise<number[]> {
  const answer = (await control("GET", `/connections?application_name=${sagaConnections[0]}`)) as {
    connections: { upstream_port: number | null }[];
  };
  return answer.connections.map((c) => c.upstream_port).filter((p): p is number => p !== null);
}

/**
 * pg_terminate_backend on the saga objects' backends that came through the fault proxy (other
 * test files' sagas use the plain proxy and are spared). `waitingOnLock` picks only those
 * blocked on a lock: their statement is certainly rolled back. Returns the backends killed.
 */
export async function killSagaBackends(pool: Pool, options: { waitingOnLock?: boolean } = {}): Promise<number> {
  const ports = await sagaConnectionPorts();
  if (ports.length === 0) return 0;
  const { rows } = await pool.query<{ killed: boolean }>(
    `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
      WHERE application_name = $1 AND client_port = ANY($2::int[]) AND pid <> pg_backend_pid()
        AND (NOT $3::boolean OR wait_event_type = 'Lock')`,
    [sagaConnections[0], ports, options.waitingOnLock ?? false],
  );
  const killed = rows.filter((r) => r.killed).length;
  await tally({ "fault.backend_kill": killed });
  return killed;
}

/** Every Durable Object of this test file dies at once (in-memory state and in-flight calls lost). */
export async function abortObjects(): Promise<void> {
  await abortAllDurableObjects();
  await tally({ "fault.object_abort": 1 });
}

/** Evicts one saga object (its storage stays); false when it was not running. */
export async function evictSaga(transferId: string): Promise<boolean> {
  try {
    await evictDurableObject(env.TRANSFER_SAGA.getByName(transferId));
  } catch {
    return false;
  }
  await tally({ "fault.object_eviction": 1 });
  return true;
}

/** The scheduled alarm and a forced second run at once: a platform retry racing the first. */
export async function fireAlarmTwice(transferId: string): Promise<void> {
  const stub = env.TRANSFER_SAGA.getByName(transferId);
  await Promise.all([runDurableObjectAlarm(stub), runInDurableObject(stub, (instance: TransferSaga) => instance.alarm())]);
  await tally({ "fault.alarm_twice": 1 });
}

/** The sandbox PSP answers 503 to every send and status call for `durationMs`. */
export async function providerOutage(durationMs: number): Promise<void> {
  const response = await call("/sandbox/provider/outage", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ duration_ms: durationMs }),
  });
  if (response.status !== 200) throw new Error(`outage answered ${response.status}`);
  await tally({ "fault.provider_outage": 1 });
}

/** Every sandbox behaviour (CONTRACT §4) and the key that triggers it. */
export const sandboxKeys = {
  happy: { pix_key: "100.000.001-08", pix_key_type: "cpf" },
  reject: { pix_key: "reject@sandbox.test", pix_key_type: "email" },
  lateReject: { pix_key: "late-reject@sandbox.test", pix_key_type: "email" },
  timeoutSent: { pix_key: "timeout-sent@sandbox.test", pix_key_type: "email" },
  timeoutLost: { pix_key: "timeout-lost@sandbox.test", pix_key_type: "email" },
  errorSent: { pix_key: "error-sent@sandbox.test", pix_key_type: "email" },
  processing: { pix_key: "processing@sandbox.test", pix_key_type: "email" },
  silent: { pix_key: "silent@sandbox.test", pix_key_type: "email" },
  flakyStatus: { pix_key: "flaky-status@sandbox.test", pix_key_type: "email" },
  lyingWebhook: { pix_key: "lying-webhook@sandbox.test", pix_key_type: "email" },
} as const;
export type SandboxBehaviour = keyof typeof sandboxKeys;
/** The silent key, typed for calls below the API (no webhook ever comes for it). */
export const silentKey = { pixKey: "silent@sandbox.test", pixKeyType: "email" } as const;
export const sandboxBehaviours = Object.keys(sandboxKeys) as SandboxBehaviour[];

/** Keys whose payment the provider makes (money leaves): never to be compensated once sent. */
export const payingBehaviours: readonly SandboxBehaviour[] = ["happy", "timeoutSent", "errorSent", "silent", "flakyStatus", "lyingWebhook"];

/** Counts not yet sent to the control endpoint, and the one send in flight. */
const unsent = { counters: new Map<string, number>(), maxima: new Map<string, number>() };
let sending: Promise<void> | null = null;

/** Sends everything gathered so far as one request: a storm of tallies is one request at a time. */
async function sendUnsent(): Promise<void> {
  const body = { counters: Object.fromEntries(unsent.counters), maxima: Object.fromEntries(unsent.maxima) };
  unsent.counters.clear();
  unsent.maxima.clear();
  await control("POST", "/tally", body);
}

/**
 * Adds to the chaos run's counters (faults by kind, operations, outcomes, violations) kept by the
 * fault control endpoint; a no-op outside the chaos project. Resolves once they were sent.
 */
export async function tally(counters: Record<string, number>, maxima: Record<string, number> = {}): Promise<void> {
  if (controlUrl() === null) return;
  for (const [name, n] of Object.entries(counters)) if (n > 0) unsent.counters.set(name, (unsent.counters.get(name) ?? 0) + n);
  for (const [name, n] of Object.entries(maxima)) unsent.maxima.set(name, Math.max(unsent.maxima.get(name) ?? 0, n));
  while (unsent.counters.size > 0 || unsent.maxima.size > 0) {
    if (sending === null) {
      sending = sendUnsent().finally(() => {
        sending = null;
      });
    }
    await sending;
  }
}
