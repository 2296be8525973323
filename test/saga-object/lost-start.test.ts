// A start that committed the transfer and died before arming its object's alarm (its answer
// lost with it), then the client's retry with the same Idempotency-Key: the replay arms the
// transfer's own object, so the saga goes on at once instead of when the sweeper finds it.
import { env, runInDurableObject } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { describe, expect } from "vitest";
import { requestFingerprint } from "../../src/http/fingerprint.ts";
import { normalisePixKey } from "../../src/pix/key.ts";
import type { TransferSaga } from "../../src/saga-object.ts";
import { createTransfer, fundedAccount, sandboxPayment, type TransferJson, waitForFinalState } from "../support/api.ts";
import { poolTest } from "../support/pool-test.ts";
import { openWithoutObject } from "../support/saga.ts";

const it = poolTest(2);

const body = { amount_cents: 1_500, pix_key: "100.000.001-08", pix_key_type: "cpf" as const, description: null };
const stub = (id: string): DurableObjectStub<TransferSaga> => env.TRANSFER_SAGA.getByName(id);
const alarmOf = (id: string): Promise<number | null> => runInDurableObject(stub(id), (_, state) => state.storage.getAlarm());

/** What the route's first start() committed before its object died: the transfer, no object state. */
async function openedByLostStart(pool: Pool, accountId: string, idempotencyKey: string): Promise<string> {
  const key = normalisePixKey(body.pix_key_type, body.pix_key);
  if (!key.ok) throw new Error(key.message);
  const fingerprint = await requestFingerprint([body.amount_cents, key.key, body.pix_key_type, body.description]);
  const saga = await openWithoutObject(pool, accountId, body.amount_cents, body.pix_key, {
    idempotencyKey,
    requestFingerprint: fingerprint,
  });
  return saga.id;
}

describe("a replay after a start that died before arming", () => {
  it("arms the transfer's own object, which then pays it once and completes it", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const idempotencyKey = crypto.randomUUID();
    const transferId = await openedByLostStart(pool, accountId, idempotencyKey);
    expect(await alarmOf(transferId)).toBeNull();

    const replay = await createTransfer(accountId, body, idempotencyKey);
    expect(replay.status).toBe(202);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await replay.json<TransferJson>()).id).toBe(transferId);

    // No poke, no sweeper: the alarm the replay set (due at once, for the send) carries the
    // saga to the end. Without it the transfer would wait in funds_reserved, never sent.
    expect((await waitForFinalState(accountId, transferId)).state).toBe("completed");
    expect(await sandboxPayment(transferId)).toMatchObject({ made: true, send_calls: 1 });
  });

  it("says what it did: armed, already armed, nothing to wait for, no such transfer", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const transferId = await openedByLostStart(pool, accountId, crypto.randomUUID());
    expect(await stub(transferId).ensureArmed()).toEqual({ outcome: "armed" });
    expect((await waitForFinalState(accountId, transferId)).state).toBe("completed");
    expect(await alarmOf(transferId)).toBeNull();
    expect(await stub(transferId).ensureArmed()).toEqual({ outcome: "nothing_to_wait_for" });
    expect(await sandboxPayment(transferId)).toMatchObject({ made: true, send_calls: 1 });

    expect(await stub(crypto.randomUUID()).ensureArmed()).toEqual({ outcome: "not_found" });
    // An armed object answers before reading anything else (here it has no record at all).
    const armedId = crypto.randomUUID();
    await runInDurableObject(stub(armedId), (_, state) => state.storage.setAlarm(Date.now() + 3_600_000));
    expect(await stub(armedId).ensureArmed()).toEqual({ outcome: "already_armed" });
    await runInDurableObject(stub(armedId), (_, state) => state.storage.deleteAlarm());
  });

  it("leaves a finished transfer's object alone when its request is replayed", async () => {
    const accountId = await fundedAccount(10_000);
    const idempotencyKey = crypto.randomUUID();
    const created = await createTransfer(accountId, body, idempotencyKey);
    expect(created.status).toBe(202);
    const transferId = (await created.json<TransferJson>()).id;
    expect((await waitForFinalState(accountId, transferId)).state).toBe("completed");

    const replay = await createTransfer(accountId, body, idempotencyKey);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await alarmOf(transferId)).toBeNull();
    expect(await sandboxPayment(transferId)).toMatchObject({ made: true, send_calls: 1 });
  });
});
