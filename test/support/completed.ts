// A transfer brought to `completed` straight through the saga record's functions (hold, send
// recorded, settle), with no provider behind it: the starting point of a return.
import type { Pool } from "@neondatabase/serverless";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { applyChange } from "../../src/transfers/store.ts";
import { openWithoutObject } from "./saga.ts";

export async function completedWithoutProvider(pool: Pool, accountId: string, amountCents: number): Promise<SagaRecord> {
  const saga = await openWithoutObject(pool, accountId, amountCents);
  const nowMs = Date.now();
  const applied = await applyChange(
    pool,
    saga.id,
    "funds_reserved",
    {
      path: ["submitted", "completed"],
      ledger: "settle",
      failureReason: null,
      failureCode: null,
      endToEndId: null,
      checksMade: 0,
      nextCheckAtMs: null,
      lastSentAtMs: nowMs,
      reason: "provider confirmed on send",
      actor: "provider",
      sent: true,
      evidence: null,
    },
    null,
  );
  if (applied.outcome !== "applied") throw new Error(`completing answered ${applied.outcome}`);
  return applied.saga;
}
