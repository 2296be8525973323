// Samples for the distance metric: each operation timed near (the delay proxy at 0 ms) and far
// (at the run's delay), one after the other, so load drift falls on both alike and the
// difference is what distance costs.
import type { PoolClient } from "@neondatabase/serverless";
import { httpDb } from "../../src/db/http.ts";
import type { StackClient } from "../lib/api.ts";
import type { BenchContext } from "../lib/context.ts";
import { benchPool } from "../lib/db.ts";
import type { DelayProxy } from "../lib/delay-proxy.ts";
import { benchAmountCents, silentPixKey } from "../lib/transfer-shape.ts";
import { prepareHolds, settleOrFail } from "./settle-probes.ts";
import { waitForStates } from "./transfer-states.ts";

export const samples = 30;
const warmupSamples = 5;
const stateWaitMs = 60_000;

export interface NearFar {
  near: number[];
  far: number[];
}

const nearFar = (): NearFar => ({ near: [], far: [] });

async function timedMs(work: () => Promise<unknown>): Promise<number> {
  const startedAtMs = performance.now();
  await work();
  return performance.now() - startedAtMs;
}

/** Runs `work` near then far, timing it (or the part it times itself); keeps both past the warm-up. */
async function both(
  proxy: DelayProxy,
  delayMs: number,
  i: number,
  into: NearFar,
  work: () => Promise<unknown>,
  timing: (work: () => Promise<unknown>) => Promise<number> = timedMs,
): Promise<void> {
  proxy.setDelayMs(0);
  const nearMs = await timing(work);
  proxy.setDelayMs(delayMs);
  const farMs = await timing(work);
  proxy.setDelayMs(0);
  if (i < warmupSamples) return;
  into.near.push(nearMs);
  into.far.push(farMs);
}

export interface ColdSteps {
  roundTrip: NearFar;
  webSocket: NearFar;
  http: NearFar;
}

/**
 * A settle as an object that just woke makes it: a new WebSocket Pool (connect, settle, end),
 * or one HTTP request. The round trip is `SELECT 1` on a warm WebSocket connection.
 */
export async function coldSteps(
  context: BenchContext,
  proxy: DelayProxy,
  delayMs: number,
  setup: PoolClient,
  warm: PoolClient,
  holdAccount: string,
): Promise<ColdSteps> {
  const far = { databaseUrl: context.cluster.databaseUrl, wsProxy: `127.0.0.1:${proxy.port}` };
  const holds = await prepareHolds(setup, holdAccount, 4 * (samples + warmupSamples));
  const http = httpDb({ ...far, applicationName: "bench-distance-http" });
  const out: ColdSteps = { roundTrip: nearFar(), webSocket: nearFar(), http: nearFar() };
  let next = 0;
  const hold = (): string => holds[next++] ?? "";
  for (let i = 0; i < samples + warmupSamples; i++) {
    await both(proxy, delayMs, i, out.roundTrip, () => warm.query("SELECT 1"));
    await both(proxy, delayMs, i, out.webSocket, async () => {
      const pool = benchPool(far, 1, "bench-distance-ws");
      try {
        await settleOrFail(pool, hold());
      } finally {
        await pool.end();
      }
    });
    await both(proxy, delayMs, i, out.http, () => settleOrFail(http, hold()));
  }
  return out;
}

export interface WorkerSamples {
  create: NearFar;
  balance: NearFar;
  webhook: NearFar;
  status: NearFar;
}

/** The Worker's requests, each near and far; nothing else of the Worker's runs meanwhile. */
export async function workerSamples(
  context: BenchContext,
  api: StackClient,
  proxy: DelayProxy,
  delayMs: number,
  accountIds: readonly string[],
): Promise<WorkerSamples> {
  const out: WorkerSamples = { create: nearFar(), balance: nearFar(), webhook: nearFar(), status: nearFar() };
  for (let i = 0; i < samples + warmupSamples; i++) {
    const accountId = accountIds[i % accountIds.length] ?? "";
    const created: string[] = [];
    await both(
      proxy,
      delayMs,
      i,
      out.create,
      () => api.createTransfer(accountId, benchAmountCents, silentPixKey),
      async (work) => {
        const startedAtMs = performance.now();
        const transferId = (await work()) as string;
        const createMs = performance.now() - startedAtMs;
        created.push(transferId);
        // The send that follows runs from the object's alarm: let it finish, near, untimed.
        proxy.setDelayMs(0);
        await waitForStates(context, [transferId], ["submitted"], stateWaitMs);
        return createMs;
      },
    );
    await both(proxy, delayMs, i, out.balance, () => api.balanceCents(accountId));
    const [nearId = "", farId = ""] = created;
    let webhookOf = nearId;
    await both(proxy, delayMs, i, out.webhook, async () => {
      await api.webhook(webhookOf);
      webhookOf = farId;
    });
    await both(proxy, delayMs, i, out.status, () => api.providerStatus(farId));
  }
  return out;
}
