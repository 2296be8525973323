// Opening transfers below the API: straight through transfer_open (the hold committed, no saga
// object ever ran, as after a crash), or through the saga object's start() with a chosen
// deadline or rules (what the route does, minus the HTTP edge).
import { env } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import type { RuleSettings } from "../../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../../src/config/saga-timings.ts";
import type { PixKeyType } from "../../../src/lib/ids.ts";
import { sleep } from "../../../src/lib/sleep.ts";
import type { StartResult } from "../../../src/saga-runtime/rpc-results.ts";
import type { SagaRecord } from "../../../src/transfers/saga-record.ts";
import { openTransfer } from "../../../src/transfers/store.ts";
import { openDefaults } from "../../support/saga.ts";

export interface DirectTransfer {
  accountId: string;
  amountCents: number;
  pixKey: string;
  pixKeyType: PixKeyType;
  deadlineMs?: number;
  rules?: Partial<RuleSettings>;
}

function input(transfer: DirectTransfer, id: string, idempotencyKey: string = crypto.randomUUID()) {
  const defaults = openDefaults();
  return {
    id,
    accountId: transfer.accountId,
    amountCents: transfer.amountCents,
    pixKey: transfer.pixKey,
    pixKeyType: transfer.pixKeyType,
    description: null,
    idempotencyKey,
    requestFingerprint: "chaos",
    deadlineMs: transfer.deadlineMs ?? readSagaTimings(env).deadlineMs,
    ...defaults,
    rules: { ...defaults.rules, ...transfer.rules },
  };
}

/** The hold committed and nothing else: no object state, no alarm. */
export async function openWithoutObject(pool: Pool, transfer: DirectTransfer): Promise<SagaRecord> {
  const opened = await openTransfer(pool, input(transfer, crypto.randomUUID()));
  if (opened.outcome !== "created") throw new Error(`open answered ${opened.outcome}`);
  return opened.saga;
}

/** What POST /v1/transfers does after validation: the saga object opens it and arms its alarm. */
export function startThroughObject(transfer: DirectTransfer): Promise<StartResult & { id: string }> {
  const id = crypto.randomUUID();
  return env.TRANSFER_SAGA.getByName(id)
    .start(input(transfer, id))
    .then((result) => ({ ...result, id }));
}

/**
 * start() as a client would drive it: on `unavailable` (the database refused or dropped the
 * connection) the same Idempotency-Key again, under a fresh object like the route uses. Returns
 * the transfer's id, whether this call or an earlier one created it.
 */
export async function startWithRetries(
  transfer: DirectTransfer,
  attemptsMax = 10,
): Promise<{ outcome: StartResult["outcome"]; id: string }> {
  const idempotencyKey = crypto.randomUUID();
  for (let attempt = 1; ; attempt++) {
    const id = crypto.randomUUID();
    const result = await env.TRANSFER_SAGA.getByName(id).start(input(transfer, id, idempotencyKey));
    if (result.outcome === "created" || result.outcome === "replayed") return { outcome: result.outcome, id: result.transferId };
    if (result.outcome !== "unavailable" || attempt >= attemptsMax) return { outcome: result.outcome, id };
    await sleep(100 * attempt);
  }
}
