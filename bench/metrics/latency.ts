// Metric 3 with distance: the same hot-account holds through a TCP proxy that delays every
// chunk by 1 ms each way. A conditional UPDATE holds the row lock only inside the server; the
// locking transaction holds it across three client round trips, so its rate falls with the
// round trip while the UPDATE's does not (until 8 clients' own round trips bound it).
import type { PoolClient } from "@neondatabase/serverless";
import { databaseUrlVia } from "../lib/cluster.ts";
import type { BenchContext } from "../lib/context.ts";
import { loggedRounds } from "../lib/context.ts";
import { benchPool, withClients, withDriverDefaults } from "../lib/db.ts";
import { startDelayProxy } from "../lib/delay-proxy.ts";
import { closedLoop, sideBySide } from "../lib/load.ts";
import { atLeast, type MetricRow, reported } from "../lib/results.ts";
import { ledgerHold, lockingTransaction, rawConditionalUpdate } from "./hold-variants.ts";
import { hotAccountId, seedHotAccount } from "./hot-seed.ts";
import { loadClients, seedSpreadAccounts } from "./ledger-efficiency.ts";

export const addedDelayMsEachWay = 1;
const rounds = 4;
const roundMs = 1_500;
const warmupMs = 750;
const roundTripProbeMs = 1_000;
const lockingRatioMin = 3;

/** Mean time of `SELECT 1` from one client: the round trip the driver actually sees. */
async function roundTripMs(clients: PoolClient[]): Promise<number> {
  const one = clients.slice(0, 1);
  const run = await closedLoop(one, roundTripProbeMs, async (client) => {
    await client.query("SELECT 1");
  });
  return run.elapsedMs / run.ops;
}

export async function measureWithLatency(context: BenchContext): Promise<MetricRow[]> {
  await seedHotAccount(context);
  const anySpreadAccount = await seedSpreadAccounts(context);
  const loopbackMs = await withClients(benchPool(context.cluster, 1, "bench-rtt"), 1, roundTripMs);
  const coalescedMs = await withDriverDefaults(() => withClients(benchPool(context.cluster, 1, "bench-rtt"), 1, roundTripMs));
  const proxy = await startDelayProxy(context.cluster.port, addedDelayMsEachWay);
  try {
    const viaProxy = { databaseUrl: databaseUrlVia(context.cluster.databaseUrl, proxy.port), wsProxy: context.cluster.wsProxy };
    return await withClients(benchPool(viaProxy, loadClients, "bench-latency"), loadClients, async (clients) => {
      const delayedMs = await roundTripMs(clients);
      const rates = await sideBySide(
        clients,
        [
          { name: "raw", op: (client) => rawConditionalUpdate(client, hotAccountId) },
          { name: "locking", op: (client) => lockingTransaction(client, hotAccountId) },
          { name: "ledger", op: (client) => ledgerHold(client, hotAccountId) },
          // Metric 1's pair again, now with distance: what the ledger costs once round trips do.
          { name: "spread-ledger", op: (client) => ledgerHold(client, anySpreadAccount()) },
          { name: "spread-raw", op: (client) => rawConditionalUpdate(client, anySpreadAccount()) },
        ],
        { rounds, roundMs, warmupMs, ...loggedRounds(context, "latency") },
      );
      const rawPerS = rates.get("raw") ?? 0;
      const lockingPerS = rates.get("locking") ?? 0;
      const ledgerPerS = rates.get("ledger") ?? 0;
      return [
        reported("round trip SELECT 1, loopback", loopbackMs, "ms"),
        reported("diag: same, driver default (coalesced writes)", coalescedMs, "ms"),
        reported(`round trip SELECT 1, +${addedDelayMsEachWay} ms each way`, delayedMs, "ms"),
        reported("hot, +latency: raw conditional UPDATE", rawPerS, "holds/s"),
        reported("hot, +latency: locking transaction", lockingPerS, "holds/s"),
        reported("hot, +latency: ledger hold()", ledgerPerS, "holds/s"),
        atLeast("hot, +latency: conditional UPDATE / locking", rawPerS / lockingPerS, "ratio", lockingRatioMin),
        reported("hot, +latency: ledger hold() / locking", ledgerPerS / lockingPerS, "ratio"),
        reported("hot, +latency: ledger hold() / raw", ledgerPerS / rawPerS, "ratio"),
        reported("diag spread, +latency: ledger hold() / raw", (rates.get("spread-ledger") ?? 0) / (rates.get("spread-raw") ?? 0), "ratio"),
      ];
    });
  } finally {
    await proxy.close();
  }
}
