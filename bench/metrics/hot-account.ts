// Metrics 2 and 3 (loopback): every hold on one account, 8 clients. The ledger's hold against
// the bare conditional UPDATE, and both against a lock-decide-write transaction, measured side
// by side in one run. The diagnostics of hot-diagnostics.ts say what a miss is made of.
// No target compares the raw UPDATE with the disk's flush: that measured PostgreSQL on a
// 2-core machine shared with the load, not this project (retired, issue 19).
import type { PoolClient } from "@neondatabase/serverless";
import type { BenchContext } from "../lib/context.ts";
import { loggedRounds } from "../lib/context.ts";
import { benchPool, withClients } from "../lib/db.ts";
import { sideBySide, type Variant } from "../lib/load.ts";
import { openObserver } from "../lib/observer.ts";
import { atLeast, type MetricRow, reported } from "../lib/results.ts";
import { ledgerHold, lockingTransaction, rawConditionalUpdate, updateAndInsertHold } from "./hold-variants.ts";
import { multiXactDiagnostic, slowFlushAddedMs, slowFlushDiagnostic } from "./hot-diagnostics.ts";
import { hotAccountId, seedHotAccount } from "./hot-seed.ts";
import { loadClients } from "./ledger-efficiency.ts";

const rounds = 8;
const roundMs = 2_000;
const warmupMs = 1_000;
const ledgerRatioMin = 0.8;
const loopbackLockingRatioMin = 1.2;

export async function measureHotAccount(context: BenchContext): Promise<MetricRow[]> {
  await seedHotAccount(context);
  const variants: Variant<PoolClient>[] = [
    { name: "ledger", op: (client) => ledgerHold(client, hotAccountId) },
    { name: "raw", op: (client) => rawConditionalUpdate(client, hotAccountId) },
    { name: "locking", op: (client) => lockingTransaction(client, hotAccountId) },
    { name: "update+insert", op: (client) => updateAndInsertHold(client, hotAccountId) },
  ];

  const observer = await openObserver(context.cluster.databaseUrl);
  try {
    const { rates, multiXactRows, slowFlush } = await withClients(
      benchPool(context.cluster, loadClients, "bench-load"),
      loadClients,
      async (clients) => ({
        rates: await sideBySide(clients, variants, { rounds, roundMs, warmupMs, ...loggedRounds(context, "hot") }),
        multiXactRows: await multiXactDiagnostic(clients, observer),
        slowFlush: await slowFlushDiagnostic(clients),
      }),
    );

    const ledgerPerS = rates.get("ledger") ?? 0;
    const rawPerS = rates.get("raw") ?? 0;
    const lockingPerS = rates.get("locking") ?? 0;
    const rows: MetricRow[] = [
      reported("hot: ledger hold()", ledgerPerS, "holds/s"),
      reported("hot: raw conditional UPDATE", rawPerS, "holds/s"),
      atLeast("hot: ledger / raw", ledgerPerS / rawPerS, "ratio", ledgerRatioMin),
      reported("hot, loopback: locking transaction", lockingPerS, "holds/s"),
      atLeast("hot, loopback: conditional UPDATE / locking", rawPerS / lockingPerS, "ratio", loopbackLockingRatioMin),
    ];
    const updateInsertPerS = rates.get("update+insert") ?? 0;
    rows.push(reported("diag hot: UPDATE + hold INSERT, one SQL statement", updateInsertPerS, "holds/s"));
    rows.push(reported("diag hot: ledger hold() / that statement", ledgerPerS / updateInsertPerS, "ratio"));
    return [
      ...rows,
      ...multiXactRows,
      reported(`diag hot, flush +${slowFlushAddedMs} ms: ledger / raw`, slowFlush.ledgerPerS / slowFlush.rawPerS, "ratio"),
      reported(`diag hot, flush +${slowFlushAddedMs} ms: raw`, slowFlush.rawPerS, "holds/s"),
    ];
  } finally {
    await observer.close();
  }
}
