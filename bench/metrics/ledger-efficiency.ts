// Metric 1: the ledger module's hold against the bare conditional UPDATE it wraps, spread over
// many accounts (no row contention), from the same process through the same driver.
import { accountIds, seedAccounts } from "../lib/accounts.ts";
import type { BenchContext } from "../lib/context.ts";
import { loggedRounds } from "../lib/context.ts";
import { benchPool, withClients } from "../lib/db.ts";
import { sideBySide } from "../lib/load.ts";
import { atLeast, type MetricRow, reported } from "../lib/results.ts";
import { ledgerHold, rawConditionalUpdate } from "./hold-variants.ts";

export const spreadAccounts = 10_000;
export const loadClients = 8;
const rounds = 6;
const roundMs = 2_000;
const warmupMs = 1_000;
const ratioMin = 0.8;

export interface LedgerEfficiency {
  rows: MetricRow[];
  rawHoldsPerS: number;
  /** PostgreSQL's CPU per raw spread UPDATE, ms: the reference of the cost rows. */
  rawPostgresCpuMs: number;
}

/** Seeds the spread accounts (idempotent) and returns a picker of one of them at random. */
export async function seedSpreadAccounts(context: BenchContext): Promise<() => string> {
  const ids = accountIds("bench-spread", spreadAccounts);
  const setup = benchPool(context.cluster, 1, "bench-setup");
  try {
    await seedAccounts(setup, ids);
  } finally {
    await setup.end();
  }
  return () => ids[Math.floor(Math.random() * ids.length)] ?? "";
}

function mean(values: readonly number[] | undefined): number {
  return values && values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : Number.NaN;
}

export async function measureLedgerEfficiency(context: BenchContext): Promise<LedgerEfficiency> {
  const anyAccount = await seedSpreadAccounts(context);
  const cpuMsPerOp = new Map<string, number[]>();
  const postgresCpuMsPerOp = new Map<string, number[]>();
  const rates = await withClients(benchPool(context.cluster, loadClients, "bench-load"), loadClients, (clients) =>
    sideBySide(
      clients,
      [
        { name: "ledger", op: (client) => ledgerHold(client, anyAccount()) },
        { name: "raw", op: (client) => rawConditionalUpdate(client, anyAccount()) },
      ],
      { rounds, roundMs, warmupMs, ...loggedRounds(context, "spread", cpuMsPerOp, postgresCpuMsPerOp) },
    ),
  );
  const ledgerPerS = rates.get("ledger") ?? 0;
  const rawPerS = rates.get("raw") ?? 0;
  return {
    rawHoldsPerS: rawPerS,
    rawPostgresCpuMs: mean(postgresCpuMsPerOp.get("raw")),
    rows: [
      reported("spread: ledger hold()", ledgerPerS, "holds/s"),
      reported("spread: raw conditional UPDATE", rawPerS, "holds/s"),
      atLeast("spread: ledger / raw", ledgerPerS / rawPerS, "ratio", ratioMin),
      reported("diag spread: CPU per ledger hold() (postgres + proxy + client)", mean(cpuMsPerOp.get("ledger")), "ms"),
      reported("diag spread: CPU per raw UPDATE (postgres + proxy + client)", mean(cpuMsPerOp.get("raw")), "ms"),
      reported("diag spread: PostgreSQL CPU per raw UPDATE", mean(postgresCpuMsPerOp.get("raw")), "ms"),
    ],
  };
}
