import path from "node:path";
import type { PoolClient } from "@neondatabase/serverless";
import { accountIds, seedAccountsIn } from "../lib/accounts.ts";
import { benchSecrets, StackClient } from "../lib/api.ts";
import type { BenchContext } from "../lib/context.ts";
import { describeShare } from "../lib/cpu.ts";
import { benchPool, withClients } from "../lib/db.ts";
import { atMost, type MetricRow, reported } from "../lib/results.ts";
import { stackVars, webhookDrivenTimings } from "../lib/stack-vars.ts";
import { summarise } from "../lib/stats.ts";
import { benchAmountCents, silentPixKey } from "../lib/transfer-shape.ts";
import { startWorkerStack } from "../lib/worker-stack.ts";
import { freshConnectionSettle, prepareHolds, settleOrFail } from "./settle-probes.ts";
import { waitForStates } from "./transfer-states.ts";

const samples = 100;
/** Not measured: the first transfers pay for the isolate's and the pool's warm-up. */
const warmupSamples = 10;
const accounts = 20;
/** Few at a time, so what is measured is one saga's path, not the queue in front of it. */
const createConcurrency = 4;
const stateWaitMs = 60_000;
/** The account whose holds the bare settle statement settles. */
const holdAccount = "bench-orch-settle";
const overheadRatioMax = 3;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const startedAtMs = performance.now();
  await work();
  return performance.now() - startedAtMs;
}

async function createTransfers(api: StackClient, ids: readonly string[], count: number): Promise<string[]> {
  const created: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: createConcurrency }, async () => {
      while (next < count) {
        const n = next++;
        created.push(await api.createTransfer(ids[n % ids.length] ?? "", benchAmountCents, silentPixKey));
      }
    }),
  );
  return created;
}

interface Samples {
  webhookMs: number[];
  settleMs: number[];
  statusMs: number[];
  /** New pool, connect, settle, end: what the object pays per poke. */
  freshSettleMs: number[];
  freshConnectMs: number[];
  /** The first statement on a new connection: the backend compiles the PL/pgSQL it calls. */
  freshFirstSettleMs: number[];
}

/** One measurement of each kind per transfer, interleaved so drift falls on all alike. */
async function collectSamples(
  context: BenchContext,
  api: StackClient,
  client: PoolClient,
  transferIds: readonly string[],
): Promise<Samples> {
  const warmHolds = await prepareHolds(client, holdAccount, transferIds.length);
  const freshHolds = await prepareHolds(client, holdAccount, transferIds.length);
  const samples: Samples = { webhookMs: [], settleMs: [], statusMs: [], freshSettleMs: [], freshConnectMs: [], freshFirstSettleMs: [] };
  context.cpu.begin();
  for (const [i, transferId] of transferIds.entries()) {
    const webhookMs = await timed(() => api.webhook(transferId));
    const settleMs = await timed(() => settleOrFail(client, warmHolds[i] ?? ""));
    const statusMs = await timed(async () => {
      const status = await api.providerStatus(transferId);
      if (status !== "confirmed") throw new Error(`the sandbox says ${status}, not confirmed`);
    });
    const fresh = await freshConnectionSettle(context, freshHolds[i] ?? "");
    if (i < warmupSamples) continue;
    samples.webhookMs.push(webhookMs);
    samples.settleMs.push(settleMs);
    samples.statusMs.push(statusMs);
    samples.freshSettleMs.push(fresh.totalMs);
    samples.freshConnectMs.push(fresh.connectMs);
    samples.freshFirstSettleMs.push(fresh.firstSettleMs);
  }
  context.log(`orchestration samples: ${describeShare(context.cpu.end())}`);
  return samples;
}

/** The object times its own provider calls and keeps them as evidence (provider_calls). */
async function statusInsideObjectP50Ms(client: PoolClient, transferIds: readonly string[]): Promise<number> {
  const { rows } = await client.query<{ p50_ms: number }>(
    `SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50_ms
       FROM provider_calls WHERE kind = 'status' AND transfer_id = ANY($1::uuid[])`,
    [transferIds],
  );
  return Number(rows[0]?.p50_ms ?? Number.NaN);
}

function summaryRows(samples: Samples, insideP50Ms: number): MetricRow[] {
  const webhook = summarise(samples.webhookMs);
  const bare = summarise(samples.settleMs);
  const status = summarise(samples.statusMs);
  const fresh = summarise(samples.freshSettleMs);
  return [
    reported("webhook -> completed (Worker + DO), p50", webhook.p50Ms, "ms"),
    reported("webhook -> completed (Worker + DO), p99", webhook.p99Ms, "ms"),
    reported("bare settle statement, p50", bare.p50Ms, "ms"),
    reported("bare settle statement, p99", bare.p99Ms, "ms"),
    reported("provider status call, p50", status.p50Ms, "ms"),
    reported("provider status call, p99", status.p99Ms, "ms"),
    atMost("webhook p50 / (settle + status) p50", webhook.p50Ms / (bare.p50Ms + status.p50Ms), "ratio", overheadRatioMax),
    reported("webhook p99 / (settle + status) p99", webhook.p99Ms / (bare.p99Ms + status.p99Ms), "ratio"),
    reported("diag: new pool + settle, driver defaults, p50", fresh.p50Ms, "ms"),
    reported("diag: new pool + settle, driver defaults, p99", fresh.p99Ms, "ms"),
    reported("diag: of which connect, p50", summarise(samples.freshConnectMs).p50Ms, "ms"),
    reported("diag: of which first settle on the new connection, p50", summarise(samples.freshFirstSettleMs).p50Ms, "ms"),
    reported("diag: status call as the object timed it, p50", insideP50Ms, "ms"),
  ];
}

export async function measureOrchestration(context: BenchContext, root: string): Promise<MetricRow[]> {
  const secrets = benchSecrets();
  const ids = accountIds("bench-orch", accounts);
  await seedAccountsIn(context.cluster, [...ids, holdAccount]);
  const stack = await startWorkerStack(root, context.workDir, "orchestration", stackVars(context.cluster, secrets, webhookDrivenTimings));
  context.own(stack.stop);
  context.cpu.watchWorker(stack.pid);
  try {
    const api = new StackClient(stack.baseUrl, secrets);
    const transferIds = await createTransfers(api, ids, samples + warmupSamples);
    await waitForStates(context, transferIds, ["submitted"], stateWaitMs);
    return await withClients(benchPool(context.cluster, 1, "bench-settle"), 1, async ([client]) => {
      if (!client) throw new Error("no client");
      const measured = await collectSamples(context, api, client, transferIds);
      await waitForStates(context, transferIds, ["completed"], stateWaitMs);
      return summaryRows(measured, await statusInsideObjectP50Ms(client, transferIds.slice(warmupSamples)));
    });
  } finally {
    context.cpu.watchWorker(undefined);
    await stack.stop();
    context.log(`orchestration: wrangler log at ${path.basename(stack.logFile)}`);
  }
}
