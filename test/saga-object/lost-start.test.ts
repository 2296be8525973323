// A start that committed the transfer and died before arming its object's alarm (its answer
// lost with it), then the client's retry with the same Idempotency-Key: the replay arms the
// transfer's own object, so the saga goes on at once instead of when the sweeper finds it.
import { env, runInDurableObject } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestFingerprint } from "../../src/http/fingerprint.ts";
import { normalisePixKey } from "../../src/http/pix-key.ts";
import { readSagaTimings } from "../../src/saga/timings.ts";
import type { TransferSaga } from "../../src/saga-object.ts";
import { openTransfer } from "../../src/transfers/store.ts";
import { createTransfer, fundedAccount, type TransferJson, waitForFinalState } from "../support/api.ts";
import { testPool } from "../support/db.ts";
import { openDefaults } from "../support/saga.ts";

let pool: Pool;
beforeAll(() => {
  pool = testPool(2);
});
afterAll(async () => {
  await pool.end();
});

const body = { amount_cents: 1_500, pix_key: "100.000.001-08", pix_key_type: "cpf" as const, description: null };
const stub = (id: string): DurableObjectStub<TransferSaga> => env.TRANSFER_SAGA.getByName(id);
const alarmOf = (id: string): Promise<number | null> => runInDurableObject(stub(id), (_, state) => state.storage.getAlarm());

/** What the route's first start() committed before its object died: the transfer, no object state. */
async function openedByLostStart(accountId: string, idempotencyKey: string): Promise<string> {
  const key = normalisePixKey(body.pix_key_type, body.pix_key);
  if (!key.ok) throw new Error(key.message);
  const opened = await openTransfer(pool, {
    id: crypto.randomUUID(),
    accountId,
    amountCents: body.amount_cents,
    pixKey: key.key,
    pixKeyType: body.pix_key_type,
    description: body.description,
    idempotencyKey,
    requestFingerprint: await requestFingerprint([body.amount_cents, key.key, body.pix_key_type, body.description]),
    deadlineMs: readSagaTimings(env).deadlineMs,
    ...openDefaults(),
  });
  if (opened.outcome !== "created") throw new Error(`open answered ${opened.outcome}`);
  return opened.saga.id;
}

describe("a replay after a start that died before arming", () => {
  it("arms the transfer's own object, which then completes the transfer", async () => {
    const accountId = await fundedAccount(10_000);
    const idempotencyKey = crypto.randomUUID();
    const transferId = await openedByLostStart(accountId, idempotencyKey);
    expect(await alarmOf(transferId)).toBeNull();

    const replay = await createTransfer(accountId, body, idempotencyKey);
    expect(replay.status).toBe(202);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await replay.json<TransferJson>()).id).toBe(transferId);

    // No poke, no sweeper: the alarm the replay set (due at once, for the send) carries the
    // saga to the end. Without it the transfer would wait in funds_reserved, never sent.
    expect((await waitForFinalState(accountId, transferId)).state).toBe("completed");
  });

  it("leaves a finished transfer's object without an alarm", async () => {
    const accountId = await fundedAccount(10_000);
    const idempotencyKey = crypto.randomUUID();
    const created = await createTransfer(accountId, body, idempotencyKey);
    expect(created.status).toBe(202);
    const transferId = (await created.json<TransferJson>()).id;
    expect((await waitForFinalState(accountId, transferId)).state).toBe("completed");
    expect(await alarmOf(transferId)).toBeNull();

    const replay = await createTransfer(accountId, body, idempotencyKey);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await alarmOf(transferId)).toBeNull();
    expect(await stub(transferId).ensureArmed()).toEqual({ armed: false });
  });
});
