// The new-device rules in business time (CONTRACT §2 "Devices", §4 "Test clock"): a client's
// registration takes effect DEVICE_REGISTRATION_DELAY_MS of business time after it is asked, an
// operator's at business now, and the new-device daily cap's day is business time's São Paulo day.
// This project's Worker has DEVICE_RULES off (the local environment), so these tests call the
// same Worker code with it on; the routes hand the rules to the saga object with each transfer.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import worker from "../../src/worker.ts";
import { getPage, login } from "../console/support.ts";
import { baseUrl, fundedAccount, type TransferJson } from "../support/api.ts";
import { advanceClock, advanceToSaoPaulo, businessNow } from "../support/clock.ts";
import { testPool } from "../support/db.ts";
import { type DeviceJson, listDevices, newDeviceId, opsRegister, registerCurrent, transferFrom } from "../support/devices.ts";

const pool = testPool(1);
afterAll(() => pool.end());
const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const delayMs = 24 * hourMs;
const perTransferCents = 20_000;
const dailyCents = 100_000;
/** Stays in flight (then needs_review, its hold kept), so what it used of its day stays used. */
const heldKey = { pix_key: "processing@sandbox.test", pix_key_type: "email" };

/**
 * The rules on, at their defaults (a 24 h delay); the night caps out of the way, so the device
 * cap is seen alone at any hour the clock reaches.
 */
const rulesOn: Env = { ...env, DEVICE_RULES: "on", NIGHT_TRANSFER_LIMIT_CENTS: "100000000", NIGHT_TOTAL_LIMIT_CENTS: "100000000" };

async function fetchWith(bindings: Env, path: string, init: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${baseUrl}${path}`, init), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const devicesOn = (path: string, init: RequestInit = {}) => fetchWith(rulesOn, path, init);

async function send(accountId: string, deviceId: string, amountCents: number): Promise<TransferJson> {
  const response = await transferFrom(accountId, deviceId, { amount_cents: amountCents, ...heldKey }, crypto.randomUUID(), devicesOn);
  expect(response.status).toBe(202);
  return response.json<TransferJson>();
}

async function newDeviceUsedCents(accountId: string): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ day: string; used_cents: string }>(
    "SELECT to_char(starts_on, 'YYYY-MM-DD') AS day, used_cents FROM limit_usage WHERE account_id = $1 AND period = 'new_device'",
    [accountId],
  );
  return Object.fromEntries(rows.map((r) => [r.day, Number(r.used_cents)]));
}

function expectNear(instant: string, expectedMs: number, toleranceMs: number): void {
  expect(Math.abs(Date.parse(instant) - expectedMs)).toBeLessThanOrEqual(toleranceMs);
}

beforeAll(async () => {
  // Business time at least an hour ahead of the wall clock, whatever ran before, so an instant
  // taken from the wall clock cannot pass for business time.
  await advanceClock(hourMs);
});

describe("a client's device registration in business time", () => {
  it("is pending and capped until DEVICE_REGISTRATION_DELAY_MS of business time has passed, then registered", async () => {
    const accountId = await fundedAccount(1_000_000);
    const deviceId = newDeviceId();
    const askedAtMs = await businessNow();
    const asked = await registerCurrent(accountId, deviceId, { name: "Pixel da Ana" }, devicesOn);
    expect(asked.status).toBe(202);
    const device = await asked.json<DeviceJson>();
    expect(device.state).toBe("pending");
    expectNear(device.effective_at, askedAtMs + delayMs, minuteMs);
    expect((await send(accountId, deviceId, perTransferCents + 1)).failure_code).toBe("new_device");

    // A minute short of it: still pending, still capped.
    await advanceClock(Date.parse(device.effective_at) - (await businessNow()) - minuteMs);
    expect((await listDevices(accountId, deviceId, devicesOn)).map((d) => d.state)).toEqual(["pending"]);
    expect((await send(accountId, deviceId, perTransferCents + 1)).failure_code).toBe("new_device");

    await advanceClock(2 * minuteMs);
    expect((await listDevices(accountId, deviceId, devicesOn)).map((d) => d.state)).toEqual(["registered"]);
    expect(await send(accountId, deviceId, perTransferCents + 1)).toMatchObject({ state: "funds_reserved", failure_reason: null });
    const accountPage = await (await getPage(`/console/accounts/${accountId}`, await login())).text();
    expect(accountPage).toContain("registered since");
    expect(accountPage).not.toContain("pending until");
  });

  it("by an operator is in force at business now", async () => {
    const accountId = await fundedAccount(1_000_000);
    const deviceId = newDeviceId("branch");
    const beforeMs = await businessNow();
    const registered = await opsRegister(accountId, deviceId);
    expect(registered.status).toBe(201);
    const device = await registered.json<DeviceJson>();
    expect(Date.parse(device.effective_at)).toBeGreaterThanOrEqual(beforeMs - 1_000);
    expect(Date.parse(device.effective_at)).toBeLessThanOrEqual(await businessNow());
    expect(await send(accountId, deviceId, perTransferCents + 1)).toMatchObject({ state: "funds_reserved", failure_reason: null });
  });
});

describe("the new-device caps in business time", () => {
  it("caps each transfer from an unregistered device at NEW_DEVICE_TRANSFER_LIMIT_CENTS", async () => {
    const accountId = await fundedAccount(1_000_000);
    const deviceId = newDeviceId();
    const refused = await send(accountId, deviceId, perTransferCents + 1);
    expect(refused).toMatchObject({ state: "compensated", failure_reason: "limit_exceeded", failure_code: "new_device" });
    expect(await send(accountId, deviceId, perTransferCents)).toMatchObject({ state: "funds_reserved", failure_reason: null });
    expect(await newDeviceUsedCents(accountId)).toEqual({ [saoPauloClock(await businessNow()).day]: perTransferCents });
  });

  it("counts the day in business São Paulo days: full before midnight, a new day's cap after it", async () => {
    // Ten minutes before a São Paulo midnight: room for the day's transfers before it comes.
    const lateMs = await advanceToSaoPaulo("23:50");
    const lateDay = saoPauloClock(lateMs).day;
    const accountId = await fundedAccount(1_000_000);
    const deviceId = newDeviceId();
    for (let sent = 0; sent < dailyCents; sent += perTransferCents) {
      expect((await send(accountId, deviceId, perTransferCents)).failure_reason).toBeNull();
    }
    const overDay = await send(accountId, deviceId, 1);
    expect(overDay).toMatchObject({ state: "compensated", failure_reason: "limit_exceeded", failure_code: "new_device_daily" });
    expect(saoPauloClock(await businessNow()).day).toBe(lateDay);

    const nextDayMs = await advanceToSaoPaulo("00:01");
    const nextDay = saoPauloClock(nextDayMs).day;
    expect(nextDay).not.toBe(lateDay);
    expect(await send(accountId, deviceId, perTransferCents)).toMatchObject({ state: "funds_reserved", failure_reason: null });
    expect(await newDeviceUsedCents(accountId)).toEqual({ [lateDay]: dailyCents, [nextDay]: perTransferCents });
  });
});

describe("a device route whose business time cannot be read", () => {
  /** Over a database no one listens on: the business-time read is the first statement that fails. */
  const unreachable: Env = { ...rulesOn, DATABASE_URL: "postgres://pix:pix@127.0.0.1:9/pix_nowhere" };

  it("answers 503 with Retry-After, not 500, and registers nothing", async () => {
    const accountId = await fundedAccount(0);
    const deviceId = newDeviceId();
    const response = await registerCurrent(accountId, deviceId, { name: "Pixel da Ana" }, (path, init = {}) =>
      fetchWith(unreachable, path, init),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ type: expect.stringMatching(/unavailable$/) });
    const { rows } = await pool.query("SELECT 1 FROM devices WHERE account_id = $1", [accountId]);
    expect(rows).toEqual([]);
  });
});
