// Diagnostics of the hot-account run: how many MultiXacts the hold row's foreign key creates,
// and ledger against raw with every commit's flush 1 ms slower (nearer a Neon commit). They
// explain a miss; they have no targets.
import type { PoolClient } from "@neondatabase/serverless";
import { closedLoop, sideBySide } from "../lib/load.ts";
import type { Observer } from "../lib/observer.ts";
import { type MetricRow, reported } from "../lib/results.ts";
import { ledgerHold, rawConditionalUpdate } from "./hold-variants.ts";
import { hotAccountId } from "./hot-seed.ts";

const diagnosticMs = 1_500;

/** MultiXacts created per hold on the hot account (CHECKPOINT publishes the counter). */
export async function multiXactDiagnostic(clients: PoolClient[], observer: Observer): Promise<MetricRow[]> {
  const before = await observer.nextMultiXactId();
  const run = await closedLoop(clients, diagnosticMs, (c) => ledgerHold(c, hotAccountId));
  const perHold = ((await observer.nextMultiXactId()) - before) / run.ops;
  return [reported("diag hot: MultiXacts per ledger hold()", perHold, "per hold")];
}

/** Added to every commit's flush by commit_delay: about what a Neon commit costs (WAL to safekeepers). */
export const slowFlushAddedMs = 1;
const slowFlushRounds = 3;
const slowFlushRoundMs = 1_500;
const slowFlushWarmupMs = 500;

export interface SlowFlush {
  ledgerPerS: number;
  rawPerS: number;
}

/**
 * Ledger against raw on the hot account again, with every commit's flush made 1 ms slower
 * (commit_delay sleeps before the WAL flush, holding the WAL write lock). commit_siblings = 0
 * makes it sleep before every flush: PostgreSQL does not count a transaction blocked on a lock
 * as a sibling, and on one hot row every other hold is, so with 1 most flushes went undelayed.
 * Shows which part of the gap is per-commit CPU that a slow flush hides.
 */
export async function slowFlushDiagnostic(clients: PoolClient[]): Promise<SlowFlush> {
  const setDelay = async (delayUs: number): Promise<void> => {
    for (const client of clients) await client.query(`SET commit_delay = ${delayUs}; SET commit_siblings = 0`);
  };
  await setDelay(slowFlushAddedMs * 1000);
  try {
    const rates = await sideBySide(
      clients,
      [
        { name: "ledger", op: (client) => ledgerHold(client, hotAccountId) },
        { name: "raw", op: (client) => rawConditionalUpdate(client, hotAccountId) },
      ],
      { rounds: slowFlushRounds, roundMs: slowFlushRoundMs, warmupMs: slowFlushWarmupMs },
    );
    return { ledgerPerS: rates.get("ledger") ?? 0, rawPerS: rates.get("raw") ?? 0 };
  } finally {
    await setDelay(0);
  }
}
