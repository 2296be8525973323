// The device routes (CONTRACT §2 "Devices", §5) with DEVICE_RULES on: tokens must name their
// device; the client registers its own (pending for DEVICE_REGISTRATION_DELAY_MS, 2 s here),
// lists and removes them; an operator registers at once and removes, each change audited. Bad
// input is a 400 that writes nothing.
import { describe, expect, it } from "vitest";
import { auditPageSchema } from "../../src/contract/ops-schemas.ts";
import { deviceListSchema, deviceSchema } from "../../src/contract/schemas.ts";
import { devicesPerAccountMax } from "../../src/devices/bounds.ts";
import { sleep } from "../../src/lib/sleep.ts";
import { personHeaders } from "../support/access.ts";
import { call, fundedAccount, opsCall, type TransferJson } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";
import {
  deviceHeaders,
  listDevices,
  newDeviceId,
  opsRegister,
  opsRemove,
  registerCurrent,
  removeDevice,
  transferFrom,
} from "../support/devices.ts";

const registrationDelayMs = 2_000;
const happyKey = { pix_key: "100.000.001-08", pix_key_type: "cpf" };

async function auditOf(accountId: string) {
  const response = await opsCall(`/ops/audit?account_id=${accountId}`);
  expect(response.status).toBe(200);
  return auditPageSchema.parse(await response.json()).data;
}

async function expectProblem(response: Response, status: number, type: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(((await response.json()) as { type: string }).type).toBe(`https://pix-cashout.dev/problems/${type}`);
}

describe("client tokens with DEVICE_RULES on", () => {
  it("are refused without device_id (401 problem+json), on every /v1 route", async () => {
    const accountId = await fundedAccount(10_000);
    for (const [path, method] of [
      ["/v1/balance", "GET"],
      ["/v1/devices", "GET"],
      ["/v1/transfers", "POST"],
    ] as const) {
      const response = await call(path, {
        method,
        headers: await deviceHeaders(accountId, null, { "idempotency-key": crypto.randomUUID() }),
        body: method === "POST" ? JSON.stringify({ amount_cents: 100, ...happyKey }) : null,
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(((await response.json()) as { detail: string }).detail).toMatch(/device_id/);
    }
    // Nothing was opened: the account's balance is as funded.
    expect(await (await call("/v1/balance", { headers: await deviceHeaders(accountId, newDeviceId()) })).json()).toMatchObject({
      balance_cents: 10_000,
      held_cents: 0,
    });
  });
});

describe("PUT /v1/devices/current", () => {
  it("asks to register the token's device: 202 pending until effective_at, then registered", async () => {
    const accountId = await fundedAccount(0);
    const deviceId = newDeviceId();
    const askedAtMs = Date.now();
    const response = await registerCurrent(accountId, deviceId, { name: "Pixel da Ana" });
    expect(response.status).toBe(202);
    const device = deviceSchema.parse(await response.json());
    expect(device).toMatchObject({ device_id: deviceId, name: "Pixel da Ana", state: "pending", last_used_at: null });
    const effectiveAtMs = Date.parse(device.effective_at);
    expect(effectiveAtMs).toBeGreaterThanOrEqual(askedAtMs + registrationDelayMs - 1_000);
    expect(effectiveAtMs).toBeLessThanOrEqual(Date.now() + registrationDelayMs);

    expect(await listDevices(accountId, deviceId)).toEqual([device]);
    await sleep(Math.max(0, effectiveAtMs - Date.now()) + 100);
    expect(await listDevices(accountId, deviceId)).toEqual([{ ...device, state: "registered" }]);
  });

  it("answers 200 with the device as it is when already pending or registered, and changes nothing", async () => {
    const accountId = await fundedAccount(0);
    const deviceId = newDeviceId();
    const first = deviceSchema.parse(await (await registerCurrent(accountId, deviceId, { name: "first" })).json());
    const again = await registerCurrent(accountId, deviceId, { name: "second" });
    expect(again.status).toBe(200);
    expect(deviceSchema.parse(await again.json())).toEqual(first);

    const registered = newDeviceId();
    expect((await opsRegister(accountId, registered, "at the branch")).status).toBe(201);
    const asked = await registerCurrent(accountId, registered, { name: "mine" });
    expect(asked.status).toBe(200);
    expect(await asked.json()).toMatchObject({ device_id: registered, name: "at the branch", state: "registered" });
  });

  it("creates one device for concurrent requests: one 202, the others 200", async () => {
    const accountId = await fundedAccount(0);
    const deviceId = newDeviceId();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => registerCurrent(accountId, deviceId, { name: `try ${i}` })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 202]);
    const bodies = await Promise.all(answers.map((a) => a.json<{ name: string; effective_at: string }>()));
    expect(new Set(bodies.map((b) => `${b.name} ${b.effective_at}`)).size).toBe(1);
    expect(await listDevices(accountId, deviceId)).toHaveLength(1);
  });

  it.each([
    ["an empty name", { name: "" }],
    ["a name of 65 characters", { name: "n".repeat(65) }],
    ["a blank name", { name: "   " }],
    ["a name with a control character", { name: "Pixel\u0000" }],
    ["no name", {}],
    ["a name that is no string", { name: 42 }],
    ["an unknown field", { name: "Pixel", color: "blue" }],
    ["malformed JSON", "{name:"],
  ])("refuses %s with 400 and registers nothing", async (_label, body) => {
    const accountId = await fundedAccount(0);
    const deviceId = newDeviceId();
    await expectProblem(await registerCurrent(accountId, deviceId, body), 400, "validation-failed");
    expect(await listDevices(accountId, deviceId)).toEqual([]);
  });

  it("takes a name of 64 characters", async () => {
    const accountId = await fundedAccount(0);
    const response = await registerCurrent(accountId, newDeviceId(), { name: "ã".repeat(64) });
    expect(response.status).toBe(202);
  });

  it("answers 403 for a token whose account does not exist, writing nothing", async () => {
    const accountId = uniqueAccountId();
    await expectProblem(await registerCurrent(accountId, newDeviceId()), 403, "forbidden");
    const listed = await call("/v1/devices", { headers: await deviceHeaders(accountId, newDeviceId()) });
    await expectProblem(listed, 403, "forbidden");
  });

  it(`refuses a device past ${devicesPerAccountMax} with 422 too-many-devices, and writes nothing`, async () => {
    const accountId = await fundedAccount(0);
    for (let i = 0; i < devicesPerAccountMax; i += 10) {
      const batch = Array.from({ length: 10 }, (_, j) => opsRegister(accountId, `device-${i + j}`));
      expect((await Promise.all(batch)).map((r) => r.status)).toEqual(Array(10).fill(201));
    }
    const extra = newDeviceId();
    await expectProblem(await registerCurrent(accountId, extra), 422, "too-many-devices");
    await expectProblem(await opsRegister(accountId, extra), 422, "too-many-devices");
    const listed = await listDevices(accountId, extra);
    expect(listed).toHaveLength(devicesPerAccountMax);
    expect(listed.map((d) => d.device_id)).not.toContain(extra);
    // One removed, there is room again.
    expect((await removeDevice(accountId, extra, "device-0")).status).toBe(204);
    expect((await registerCurrent(accountId, extra)).status).toBe(202);
  });
});

describe("GET /v1/devices", () => {
  it("lists the account's devices oldest first, each with its state and last use, and no other account's", async () => {
    const accountId = await fundedAccount(100_000);
    const other = await fundedAccount(0);
    const phone = newDeviceId("phone");
    const tablet = newDeviceId("tablet");
    expect((await opsRegister(accountId, phone, "Phone")).status).toBe(201);
    expect((await registerCurrent(accountId, tablet, { name: "Tablet" })).status).toBe(202);
    expect((await registerCurrent(other, newDeviceId(), { name: "Someone else's" })).status).toBe(202);

    const before = deviceListSchema.parse({ data: await listDevices(accountId, tablet) }).data;
    expect(before.map((d) => [d.device_id, d.name, d.state, d.last_used_at])).toEqual([
      [phone, "Phone", "registered", null],
      [tablet, "Tablet", "pending", null],
    ]);

    const sent = await transferFrom(accountId, phone, { amount_cents: 1_000, ...happyKey });
    expect(sent.status).toBe(202);
    const transfer = await sent.json<TransferJson & { created_at: string }>();
    const after = await listDevices(accountId, tablet);
    expect(after[0]?.last_used_at).toBe(transfer.created_at);
    expect(after[1]?.last_used_at).toBeNull();
  });
});

describe("DELETE /v1/devices/:device_id", () => {
  it("removes a device at once (204), then answers 404 for it", async () => {
    const accountId = await fundedAccount(0);
    const phone = newDeviceId();
    const old = newDeviceId("old phone");
    expect((await registerCurrent(accountId, phone)).status).toBe(202);
    expect((await opsRegister(accountId, old)).status).toBe(201);
    const removed = await removeDevice(accountId, phone, old);
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe("");
    expect((await listDevices(accountId, phone)).map((d) => d.device_id)).toEqual([phone]);
    await expectProblem(await removeDevice(accountId, phone, old), 404, "not-found");
    // Its own device, pending, too.
    expect((await removeDevice(accountId, phone, phone)).status).toBe(204);
    expect(await listDevices(accountId, phone)).toEqual([]);
  });

  it("answers 404 for another account's device, and removes nothing", async () => {
    const accountId = await fundedAccount(0);
    const other = await fundedAccount(0);
    const theirs = newDeviceId();
    expect((await registerCurrent(other, theirs)).status).toBe(202);
    await expectProblem(await removeDevice(accountId, newDeviceId(), theirs), 404, "not-found");
    expect(await listDevices(other, theirs)).toHaveLength(1);
  });

  it("answers 400 for a device id that no token could carry", async () => {
    const accountId = await fundedAccount(0);
    await expectProblem(await removeDevice(accountId, newDeviceId(), "d".repeat(129)), 400, "validation-failed");
    await expectProblem(await removeDevice(accountId, newDeviceId(), "telefone-joão"), 400, "validation-failed");
  });
});

describe("operators' device routes", () => {
  it("register at once (201 registered), audited as device_registered with the actor; a repeat changes and records nothing", async () => {
    const accountId = await fundedAccount(0);
    const deviceId = newDeviceId();
    const response = await call(`/ops/accounts/${accountId}/devices/${deviceId}`, {
      method: "PUT",
      headers: await personHeaders("ana@fintech.example"),
      body: JSON.stringify({ name: "Onboarding" }),
    });
    expect(response.status).toBe(201);
    const device = deviceSchema.parse(await response.json());
    expect(device).toMatchObject({ device_id: deviceId, name: "Onboarding", state: "registered" });
    expect(Date.parse(device.effective_at)).toBeLessThanOrEqual(Date.now());
    expect(await listDevices(accountId, deviceId)).toEqual([device]);

    const again = await opsRegister(accountId, deviceId, "Onboarding");
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(device);
    const audited = (await auditOf(accountId)).filter((e) => e.action.startsWith("device_"));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      actor: "ana@fintech.example",
      action: "device_registered",
      account_id: accountId,
      details: { device_id: deviceId, name: "Onboarding", effective_at: device.effective_at, before: null },
    });
  });

  it("make a client's pending device registered now (200), recording what it was", async () => {
    const accountId = await fundedAccount(0);
    const deviceId = newDeviceId();
    const pending = deviceSchema.parse(await (await registerCurrent(accountId, deviceId, { name: "Mine" })).json());
    const response = await opsRegister(accountId, deviceId, "Checked at the branch");
    expect(response.status).toBe(200);
    const registered = deviceSchema.parse(await response.json());
    expect(registered).toMatchObject({ state: "registered", name: "Checked at the branch" });
    expect(Date.parse(registered.effective_at)).toBeLessThan(Date.parse(pending.effective_at));
    const [entry] = await auditOf(accountId);
    expect(entry).toMatchObject({
      actor: "ops-token",
      action: "device_registered",
      details: { device_id: deviceId, before: { state: "pending", name: "Mine", effective_at: pending.effective_at } },
    });
  });

  it("remove at once (204), audited as device_removed; 404 when there is no such device or account", async () => {
    const accountId = await fundedAccount(0);
    const deviceId = newDeviceId();
    expect((await registerCurrent(accountId, deviceId, { name: "Lost phone" })).status).toBe(202);
    expect((await opsRemove(accountId, deviceId)).status).toBe(204);
    expect(await listDevices(accountId, deviceId)).toEqual([]);
    const [entry] = await auditOf(accountId);
    expect(entry).toMatchObject({
      actor: "ops-token",
      action: "device_removed",
      details: { device_id: deviceId, name: "Lost phone", state: "pending" },
    });
    await expectProblem(await opsRemove(accountId, deviceId), 404, "not-found");
    await expectProblem(await opsRemove(uniqueAccountId(), deviceId), 404, "not-found");
    await expectProblem(await opsRegister(uniqueAccountId(), deviceId), 404, "not-found");
  });

  it("refuse bad ids and bodies with 400, a body not labelled JSON with 415, and write nothing", async () => {
    const accountId = await fundedAccount(0);
    const deviceId = newDeviceId();
    const put = (path: string, body: string, headers: Record<string, string> = {}) =>
      opsCall(`/ops/accounts/${path}`, { method: "PUT", body, headers });
    await expectProblem(await put(`${accountId}/devices/${deviceId}`, JSON.stringify({ name: "" })), 400, "validation-failed");
    await expectProblem(await put(`${accountId}/devices/${deviceId}`, JSON.stringify({ name: "x", extra: 1 })), 400, "validation-failed");
    await expectProblem(await put(`${accountId}/devices/${"d".repeat(129)}`, JSON.stringify({ name: "x" })), 400, "validation-failed");
    await expectProblem(await put(`bad%20id/devices/${deviceId}`, JSON.stringify({ name: "x" })), 400, "validation-failed");
    await expectProblem(
      await opsCall(`/ops/accounts/${accountId}/devices/${"d".repeat(129)}`, { method: "DELETE" }),
      400,
      "validation-failed",
    );
    const unlabelled = await put(`${accountId}/devices/${deviceId}`, JSON.stringify({ name: "x" }), { "content-type": "text/plain" });
    await expectProblem(unlabelled, 415, "unsupported-media-type");
    expect(await listDevices(accountId, deviceId)).toEqual([]);
    expect((await auditOf(accountId)).filter((e) => e.action.startsWith("device_"))).toEqual([]);
  });
});
