// What a user pays for distance to the database: a delay proxy (default 20 ms each way) in front
// of the dev proxy, which serves both of the driver's paths on one port (the WebSocket Pool and
// Neon's HTTP endpoint, /sql). Side by side in one run: a cold saga step over each path (from
// Node, so the retired WebSocket path can still be timed), then the real Worker over the HTTP
// path. Each operation runs near (no delay) and far; far minus near, over the round trip's own
// far minus near, is how many round trips it spends on the database.
import { accountIds, seedAccountsIn } from "../lib/accounts.ts";
import { benchSecrets, StackClient } from "../lib/api.ts";
import type { BenchContext } from "../lib/context.ts";
import { benchPool, withClients } from "../lib/db.ts";
import { startDelayProxy } from "../lib/delay-proxy.ts";
import { atMost, type MetricRow, reported } from "../lib/results.ts";
import { stackVars, webhookDrivenTimings } from "../lib/stack-vars.ts";
import { percentile } from "../lib/stats.ts";
import { startWorkerStack } from "../lib/worker-stack.ts";
import { coldSteps, type NearFar, workerSamples } from "./distance-samples.ts";

export const defaultDelayMsEachWay = 20;
const accounts = 10;
const holdAccount = "bench-distance-settle";
/** Round trips a single statement may cost: one, and half of one for everything else. */
const roundTripsMax = 1.5;

const p50 = (samplesMs: readonly number[]): number => percentile(samplesMs, 0.5);
const addedMs = (pair: NearFar): number => p50(pair.far) - p50(pair.near);

export async function measureDistance(context: BenchContext, root: string, delayMs: number): Promise<MetricRow[]> {
  const ids = accountIds("bench-distance", accounts);
  await seedAccountsIn(context.cluster, [...ids, holdAccount]);
  const proxy = await startDelayProxy(Number(context.cluster.wsProxy.split(":")[1]), 0);
  const far = { databaseUrl: context.cluster.databaseUrl, wsProxy: `127.0.0.1:${proxy.port}` };
  try {
    const cold = await withClients(benchPool(context.cluster, 1, "bench-distance-setup"), 1, ([setup]) =>
      withClients(benchPool(far, 1, "bench-distance-rtt"), 1, ([warm]) => {
        if (!setup || !warm) throw new Error("no client");
        return coldSteps(context, proxy, delayMs, setup, warm, holdAccount);
      }),
    );
    const secrets = benchSecrets();
    const stack = await startWorkerStack(
      root,
      context.workDir,
      "distance",
      stackVars({ ...context.cluster, ...far }, secrets, webhookDrivenTimings),
    );
    context.own(stack.stop);
    const worker = await workerSamples(context, new StackClient(stack.baseUrl, secrets), proxy, delayMs, ids).finally(() => stack.stop());

    const rttFarMs = p50(cold.roundTrip.far);
    const addedRttMs = addedMs(cold.roundTrip);
    const roundTrips = (pair: NearFar): number => addedMs(pair) / addedRttMs;
    const webhookFarMs = p50(worker.webhook.far);
    const statusFarMs = p50(worker.status.far);
    context.log(
      `distance p50 near/far ms: rtt ${p50(cold.roundTrip.near).toFixed(1)}/${rttFarMs.toFixed(1)}, ` +
        (["webSocket", "http"] as const).map((k) => `${k} ${p50(cold[k].near).toFixed(1)}/${p50(cold[k].far).toFixed(1)}`).join(", ") +
        ", " +
        (["create", "balance", "webhook", "status"] as const)
          .map((k) => `${k} ${p50(worker[k].near).toFixed(1)}/${p50(worker[k].far).toFixed(1)}`)
          .join(", "),
    );
    return [
      reported("distance: delay each way", delayMs, "ms"),
      reported("distance: round trip far (SELECT 1, warm connection), p50", rttFarMs, "ms"),
      reported("distance: cold step over WebSocket (new pool + settle), far, p50", p50(cold.webSocket.far), "ms"),
      reported("distance: cold step over WebSocket, database round trips", roundTrips(cold.webSocket), "RTT"),
      reported("distance: cold step over HTTP (one settle), far, p50", p50(cold.http.far), "ms"),
      atMost("distance: cold saga step database time / RTT (HTTP)", roundTrips(cold.http), "RTT", roundTripsMax),
      reported("distance: POST /v1/transfers, far, p50", p50(worker.create.far), "ms"),
      atMost("distance: POST /v1/transfers database time / RTT", roundTrips(worker.create), "RTT", roundTripsMax),
      reported("distance: GET /v1/balance, far, p50", p50(worker.balance.far), "ms"),
      atMost("distance: GET /v1/balance database time / RTT", roundTrips(worker.balance), "RTT", roundTripsMax),
      reported("distance: webhook -> completed, far, p50", webhookFarMs, "ms"),
      reported("distance: provider status call, far, p50", statusFarMs, "ms"),
      atMost("distance: webhook -> completed beyond one status call / RTT", (webhookFarMs - statusFarMs) / rttFarMs, "RTT", roundTripsMax),
      reported("diag: webhook -> completed, database round trips", roundTrips(worker.webhook), "RTT"),
    ];
  } finally {
    await proxy.close();
  }
}
