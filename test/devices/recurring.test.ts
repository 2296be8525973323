// A recurring transfer meets the new-device cap as a one-off schedule does (CONTRACT §2
// "Devices", "Recurring transfers"): the recurrence records the device of the request that
// created it, every occurrence and evening retry carries it, and the cap judges each at its run
// by that device as registered then. Nothing is refused when the recurrence is requested: the
// device may be registered by the first date. Runs are driven at their slots (runAtSlot).
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { transferStorySchema } from "../../src/contract/ops-schemas.ts";
import { recurringTransferSchema } from "../../src/contract/schemas.ts";
import { expectJson } from "../api/helpers.ts";
import { creditAccount, getTransfer, opsCall } from "../support/api.ts";
import { newDeviceId, opsRegister, recurringFrom } from "../support/devices.ts";
import { checkInvariants } from "../support/invariants.ts";
import { filePool } from "../support/pool-test.ts";
import { getRecurring, recurringBody, runAtSlot } from "../support/recurring.ts";
import { saoPauloDayFromToday } from "../support/schedule.ts";
import { accountTracker } from "../support/tracked-accounts.ts";

const pool = filePool(2);
const perTransferCents = 20_000;
const accounts = accountTracker();
type RecurringTransfer = z.infer<typeof recurringTransferSchema>;

/** A weekly recurrence of 2 from `deviceId`, its first date the day after tomorrow. */
async function createdFrom(accountId: string, deviceId: string, amountCents: number, key?: string): Promise<RecurringTransfer> {
  const body = recurringBody({ amount_cents: amountCents, first_date: saoPauloDayFromToday(2), frequency: "weekly", count: 2 });
  return expectJson(await recurringFrom(accountId, deviceId, body, key), 201, recurringTransferSchema);
}

async function recurrenceOf(accountId: string, id: string): Promise<RecurringTransfer> {
  return expectJson(await getRecurring(accountId, id), 200, recurringTransferSchema);
}

/** GET /ops/transfers/:id: the device a transfer carries, and how the cap judged it. */
async function storyOf(transferId: string) {
  const response = await opsCall(`/ops/transfers/${transferId}`);
  expect(response.status).toBe(200);
  return transferStorySchema.parse(await response.json());
}

function transferIdOf(recurrence: RecurringTransfer, occurrence: number): string {
  const id = recurrence.occurrences[occurrence - 1]?.transfer_id;
  if (id === undefined) throw new Error(`occurrence ${occurrence} of ${recurrence.id} has not opened`);
  return id;
}

async function newDeviceUsedCents(accountId: string, day: string): Promise<number> {
  const { rows } = await pool.query<{ used_cents: string }>(
    "SELECT used_cents FROM limit_usage WHERE account_id = $1 AND period = 'new_device' AND starts_on = $2",
    [accountId, day],
  );
  return Number(rows[0]?.used_cents ?? 0);
}

describe("a recurrence from an unregistered device", () => {
  it("is created above the per-transfer cap, like a one-off schedule, and each occurrence is refused new_device at its run", async () => {
    const accountId = await accounts.account(1_000_000);
    const deviceId = newDeviceId();
    const key = crypto.randomUUID();
    const recurrence = await createdFrom(accountId, deviceId, perTransferCents + 1, key);
    const firstId = transferIdOf(recurrence, 1);
    expect(await getTransfer(accountId, firstId)).toMatchObject({ state: "scheduled" });
    expect(await storyOf(firstId)).toMatchObject({ device_id: deviceId, device_registered: null });

    // A replay answers the first response unchanged.
    const replay = await recurringFrom(
      accountId,
      deviceId,
      recurringBody({ amount_cents: perTransferCents + 1, first_date: saoPauloDayFromToday(2), frequency: "weekly", count: 2 }),
      key,
    );
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson(replay, 201, recurringTransferSchema)).toEqual(recurrence);

    await runAtSlot(pool, firstId);
    expect(await getTransfer(accountId, firstId)).toMatchObject({
      state: "compensated",
      failure_reason: "limit_exceeded",
      failure_code: "new_device",
    });
    const story = await storyOf(firstId);
    expect(story.history.at(-1)?.evidence).toMatchObject({ rule: "new_device", limit_cents: perTransferCents, device_id: deviceId });

    // The next occurrence carries the same device, and is judged by it at its own run.
    const secondId = transferIdOf(await recurrenceOf(accountId, recurrence.id), 2);
    expect(await storyOf(secondId)).toMatchObject({ device_id: deviceId });
    await runAtSlot(pool, secondId);
    expect(await getTransfer(accountId, secondId)).toMatchObject({ failure_code: "new_device" });
  });

  it("within the cap: each occurrence carries the device and counts toward the new-device day at its run", async () => {
    const accountId = await accounts.account(1_000_000);
    const deviceId = newDeviceId();
    const recurrence = await createdFrom(accountId, deviceId, 15_000);
    const firstId = transferIdOf(recurrence, 1);
    const ran = await runAtSlot(pool, firstId);
    expect(ran.state).not.toBe("compensated");
    expect(await storyOf(firstId)).toMatchObject({ device_id: deviceId, device_registered: false });
    expect(await newDeviceUsedCents(accountId, recurrence.first_date)).toBe(15_000);
  });

  it("runs in full once the device was registered before the run", async () => {
    const accountId = await accounts.account(1_000_000);
    const deviceId = newDeviceId();
    const recurrence = await createdFrom(accountId, deviceId, perTransferCents + 1);
    expect((await opsRegister(accountId, deviceId)).status).toBe(201);
    const firstId = transferIdOf(recurrence, 1);
    expect((await runAtSlot(pool, firstId)).state).not.toBe("compensated");
    expect(await storyOf(firstId)).toMatchObject({ device_id: deviceId, device_registered: true });
    expect(await newDeviceUsedCents(accountId, recurrence.first_date)).toBe(0);
  });

  it("gives the evening retry the same device, which counts toward the new-device day at its own run", async () => {
    const accountId = await accounts.account(1_000);
    const deviceId = newDeviceId();
    const recurrence = await createdFrom(accountId, deviceId, 15_000);
    await runAtSlot(pool, transferIdOf(recurrence, 1));
    const retryId = (await recurrenceOf(accountId, recurrence.id)).occurrences[0]?.retry_transfer_id ?? "";
    expect(retryId).not.toBe("");
    expect(await storyOf(retryId)).toMatchObject({ device_id: deviceId });

    await creditAccount(accountId, 100_000);
    expect((await runAtSlot(pool, retryId)).state).not.toBe("compensated");
    expect(await storyOf(retryId)).toMatchObject({ device_id: deviceId, device_registered: false });
    expect(await newDeviceUsedCents(accountId, recurrence.first_date)).toBe(15_000);
  });
});

describe("after all of the above", () => {
  it("keeps every invariant over these accounts", async () => {
    expect(await checkInvariants(pool, { accountIds: accounts.used })).toEqual([]);
  });
});
