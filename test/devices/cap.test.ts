// The Central Bank's new-device cap (CONTRACT §2 "Devices"), decided with the hold under the
// account's lock: a transfer from a device not registered for the account moves at most
// NEW_DEVICE_TRANSFER_LIMIT_CENTS (R$ 200), and with the account's other such transfers of the
// São Paulo day at most NEW_DEVICE_DAILY_LIMIT_CENTS (R$ 1,000); beyond, 202 compensated
// limit_exceeded new_device / new_device_daily, nothing held or sent.

import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import { transferStorySchema } from "../../src/contract/ops-schemas.ts";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { sleep } from "../../src/lib/sleep.ts";
import { providerFor } from "../../src/provider/select.ts";
import { scheduledRunAtMs } from "../../src/saga/schedule.ts";
import { advance, type SagaPorts } from "../../src/saga-runtime/advance.ts";
import { loadSaga } from "../../src/transfers/store.ts";
import { fundedAccount, getBalance, getTransfer, opsCall, sandboxPayment, type TransferJson, waitForFinalState } from "../support/api.ts";
import { newDeviceId, opsRegister, opsRemove, registerCurrent, transferFrom } from "../support/devices.ts";
import { checkInvariants } from "../support/invariants.ts";
import { filePool } from "../support/pool-test.ts";
import { saoPauloDayFromToday } from "../support/schedule.ts";

const pool = filePool(3);
const happyKey = { pix_key: "100.000.001-08", pix_key_type: "cpf" };
/**
 * A transfer that stays in flight (then needs_review, its hold kept): never compensated, so what
 * it used of the day stays used however slowly the sandbox answers under load.
 */
const heldKey = { pix_key: "processing@sandbox.test", pix_key_type: "email" };
const perTransferCents = 20_000;
const dailyCents = 100_000;

async function send(accountId: string, deviceId: string, amountCents: number, pixKey = heldKey): Promise<TransferJson> {
  const response = await transferFrom(accountId, deviceId, { amount_cents: amountCents, ...pixKey });
  expect(response.status).toBe(202);
  return response.json<TransferJson>();
}

/** What the account's transfers from unregistered devices have used of `day`. */
async function newDeviceUsedCents(accountId: string, day: string): Promise<number> {
  const { rows } = await pool.query<{ used_cents: string }>(
    "SELECT used_cents FROM limit_usage WHERE account_id = $1 AND period = 'new_device' AND starts_on = $2",
    [accountId, day],
  );
  return Number(rows[0]?.used_cents ?? 0);
}

const today = () => saoPauloClock(Date.now()).day;

/** GET /ops/transfers/:id, checked against the contract's schema. */
async function storyOf(transferId: string) {
  const response = await opsCall(`/ops/transfers/${transferId}`);
  expect(response.status).toBe(200);
  return transferStorySchema.parse(await response.json());
}

describe("the new-device cap per transfer", () => {
  it("the defaults are the Central Bank's: R$ 200 a transfer, R$ 1,000 a day", () => {
    expect(readRuleSettings(env)).toMatchObject({
      device_rules: true,
      new_device_transfer_cents: perTransferCents,
      new_device_daily_cents: dailyCents,
    });
  });

  it("refuses more than R$ 200 from an unregistered device, before anything is held or sent", async () => {
    const accountId = await fundedAccount(1_000_000);
    const deviceId = newDeviceId();
    const refused = await send(accountId, deviceId, perTransferCents + 1);
    expect(refused).toMatchObject({ state: "compensated", failure_reason: "limit_exceeded", failure_code: "new_device" });
    expect(refused.history.map((h) => [h.state, h.reason])).toEqual([
      ["started", null],
      ["compensated", "limit_exceeded"],
    ]);
    expect(await sandboxPayment(refused.id)).toBeNull();
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 1_000_000, held_cents: 0 });
    const story = await storyOf(refused.id);
    expect(story.history.at(-1)?.evidence).toMatchObject({ rule: "new_device", limit_cents: perTransferCents, device_id: deviceId });
    expect(story).toMatchObject({ device_id: deviceId, device_registered: null });

    const exactly = await send(accountId, deviceId, perTransferCents);
    expect(exactly).toMatchObject({ state: "funds_reserved", failure_reason: null });
    expect(await newDeviceUsedCents(accountId, today())).toBe(perTransferCents);
    expect(await storyOf(exactly.id)).toMatchObject({ device_id: deviceId, device_registered: false });
  });

  it("does not cap a registered device, nor count its transfers toward the day", async () => {
    const accountId = await fundedAccount(1_000_000);
    const deviceId = newDeviceId();
    expect((await opsRegister(accountId, deviceId)).status).toBe(201);
    const large = await send(accountId, deviceId, 300_000, happyKey);
    expect(large.failure_reason).toBeNull();
    expect(await storyOf(large.id)).toMatchObject({ device_id: deviceId, device_registered: true });
    expect(await newDeviceUsedCents(accountId, today())).toBe(0);
  });

  it("caps a device while its registration is pending, and not once it is in force", async () => {
    const accountId = await fundedAccount(1_000_000);
    const deviceId = newDeviceId();
    const asked = await (await registerCurrent(accountId, deviceId)).json<{ effective_at: string }>();
    expect((await send(accountId, deviceId, 30_000)).failure_code).toBe("new_device");
    await sleep(Math.max(0, Date.parse(asked.effective_at) - Date.now()) + 100);
    expect((await send(accountId, deviceId, 30_000)).failure_reason).toBeNull();
  });

  it("caps a device again from the moment it is removed", async () => {
    const accountId = await fundedAccount(1_000_000);
    const deviceId = newDeviceId();
    expect((await opsRegister(accountId, deviceId)).status).toBe(201);
    expect((await send(accountId, deviceId, 30_000)).failure_reason).toBeNull();
    expect((await opsRemove(accountId, deviceId)).status).toBe(204);
    expect((await send(accountId, deviceId, 30_000)).failure_code).toBe("new_device");
  });
});

describe("the new-device cap per day", () => {
  it("sums the day's transfers of every unregistered device of the account, and refuses past R$ 1,000", async () => {
    const accountId = await fundedAccount(1_000_000);
    const phone = newDeviceId("phone");
    const tablet = newDeviceId("tablet");
    for (const deviceId of [phone, tablet, phone, tablet, phone])
      expect((await send(accountId, deviceId, 20_000)).failure_reason).toBeNull();
    const refused = await send(accountId, tablet, 1);
    expect(refused).toMatchObject({ state: "compensated", failure_reason: "limit_exceeded", failure_code: "new_device_daily" });
    expect(await sandboxPayment(refused.id)).toBeNull();
    expect(await newDeviceUsedCents(accountId, today())).toBe(dailyCents);
    // A registered device of the same account is not held back by its new devices.
    const registered = newDeviceId("registered");
    expect((await opsRegister(accountId, registered)).status).toBe(201);
    expect((await send(accountId, registered, 50_000)).failure_reason).toBeNull();
    // Another account's new device has its own day.
    const other = await fundedAccount(100_000);
    expect((await send(other, newDeviceId(), 20_000)).failure_reason).toBeNull();
  });

  it("holds exactly floor(R$ 1,000 / amount) of concurrent transfers from one unregistered device", async () => {
    const accountId = await fundedAccount(1_000_000);
    const deviceId = newDeviceId();
    const amountCents = 15_000;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => transferFrom(accountId, deviceId, { amount_cents: amountCents, ...heldKey })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(202));
    const transfers = await Promise.all(answers.map((a) => a.json<TransferJson>()));
    const held = transfers.filter((t) => t.failure_reason === null);
    expect(held).toHaveLength(Math.floor(dailyCents / amountCents));
    expect(transfers.filter((t) => t.failure_code === "new_device_daily")).toHaveLength(12 - held.length);
    expect(await newDeviceUsedCents(accountId, today())).toBe(held.length * amountCents);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 1_000_000, held_cents: held.length * amountCents });
    expect(await checkInvariants(pool, { accountIds: [accountId] })).toEqual([]);
  });

  it("gives a compensated transfer's amount back to the day's new-device cap", async () => {
    const accountId = await fundedAccount(1_000_000);
    const deviceId = newDeviceId();
    for (let i = 0; i < 4; i++) expect((await send(accountId, deviceId, 20_000)).failure_reason).toBeNull();
    const rejected = await send(accountId, deviceId, 20_000, { pix_key: "reject@sandbox.test", pix_key_type: "email" });
    expect(rejected.failure_reason).toBeNull();
    expect((await send(accountId, deviceId, 1)).failure_code).toBe("new_device_daily");
    // Refused by the provider (or, when the sandbox is slow to answer, not sent): released either way.
    expect((await waitForFinalState(accountId, rejected.id)).state).toBe("compensated");
    expect(await newDeviceUsedCents(accountId, today())).toBe(80_000);
    expect((await send(accountId, deviceId, 20_000)).failure_reason).toBeNull();
    expect((await send(accountId, deviceId, 1)).failure_code).toBe("new_device_daily");
    expect(await checkInvariants(pool, { accountIds: [accountId] })).toEqual([]);
  });
});

describe("a scheduled transfer", () => {
  function fixedClock(nowMs: number): SagaPorts {
    return { db: pool, provider: providerFor(env), timings: readSagaTimings(env), rules: readRuleSettings(env), nowMs: () => nowMs };
  }

  async function scheduleFrom(accountId: string, deviceId: string, amountCents: number): Promise<{ id: string; day: string }> {
    const day = saoPauloDayFromToday(2);
    const response = await transferFrom(accountId, deviceId, { amount_cents: amountCents, ...happyKey, scheduled_for: day });
    expect(response.status).toBe(202);
    const transfer = await response.json<TransferJson>();
    // No rule is checked when it is requested: only on its day.
    expect(transfer.state).toBe("scheduled");
    return { id: transfer.id, day };
  }

  /** Its run at its slot, as its object's alarm runs it; answers the transfer as its client sees it then. */
  async function runOnItsDay(accountId: string, id: string, day: string): Promise<TransferJson> {
    const saga = await loadSaga(pool, id);
    if (saga === null) throw new Error("no scheduled transfer");
    await advance(fixedClock(scheduledRunAtMs(day, id, "early")), saga, { cause: "poke" });
    return getTransfer(accountId, id);
  }

  it("is judged by the device that requested it, as registered at its run: capped while unregistered", async () => {
    const accountId = await fundedAccount(1_000_000);
    const { id, day } = await scheduleFrom(accountId, newDeviceId(), 30_000);
    expect(await runOnItsDay(accountId, id, day)).toMatchObject({
      state: "compensated",
      failure_reason: "limit_exceeded",
      failure_code: "new_device",
    });
  });

  it("runs in full once its device was registered before the run", async () => {
    const accountId = await fundedAccount(1_000_000);
    const deviceId = newDeviceId();
    const { id, day } = await scheduleFrom(accountId, deviceId, 30_000);
    expect((await opsRegister(accountId, deviceId)).status).toBe(201);
    const ran = await runOnItsDay(accountId, id, day);
    expect(ran.failure_reason).toBeNull();
    expect(ran.history.map((h) => h.state)).toContain("funds_reserved");
    expect(await newDeviceUsedCents(accountId, day)).toBe(0);
  });
});
