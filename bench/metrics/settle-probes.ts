// The settle statement measured two ways: on a warm connection (the bare statement), and the way
// the saga object runs it for every burst of steps (a new pool, connect, settle, end, with the
// driver's defaults), split so the connection and the first statement on it show separately.
import { randomUUID } from "node:crypto";
import type { PoolClient } from "@neondatabase/serverless";
import { hold, settle } from "../../src/ledger/ledger.ts";
import type { BenchContext } from "../lib/context.ts";
import { benchPool, withDriverDefaults } from "../lib/db.ts";
import { benchAmountCents } from "../lib/transfer-shape.ts";

/** Holds to settle: one per sample, made before timing starts. */
export async function prepareHolds(client: PoolClient, accountId: string, count: number): Promise<string[]> {
  const holdIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    if ((await hold(client, id, accountId, benchAmountCents)) !== "held") throw new Error("could not prepare a hold to settle");
    holdIds.push(id);
  }
  return holdIds;
}

export async function settleOrFail(db: Parameters<typeof settle>[0], holdId: string): Promise<void> {
  const result = await settle(db, holdId);
  if (result !== "settled") throw new Error(`bare settle answered ${result}`);
}

export interface FreshSettle {
  connectMs: number;
  firstSettleMs: number;
  totalMs: number;
}

/** As the object does it for every burst of steps, with the driver's defaults as it has them. */
export function freshConnectionSettle(context: BenchContext, holdId: string): Promise<FreshSettle> {
  return withDriverDefaults(async () => {
    const startedAtMs = performance.now();
    const pool = benchPool(context.cluster, 1, "bench-fresh");
    let connectedAtMs = startedAtMs;
    let settledAtMs = startedAtMs;
    try {
      const client = await pool.connect();
      connectedAtMs = performance.now();
      try {
        await settleOrFail(client, holdId);
        settledAtMs = performance.now();
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
    return { connectMs: connectedAtMs - startedAtMs, firstSettleMs: settledAtMs - connectedAtMs, totalMs: performance.now() - startedAtMs };
  });
}
