// Devices in tests (the `devices` project: DEVICE_RULES on, a 2 s registration delay): tokens
// that name their device, and the client's and operators' device calls. The client's calls go to
// the project's Worker unless `via` names another (a clock test's Worker with DEVICE_RULES on).
import { call, clientToken, opsCall, type TransferBody } from "./api.ts";

export type Caller = (path: string, init?: RequestInit) => Promise<Response>;

/** A client's headers whose token names `deviceId` (null: a token without the claim). */
export async function deviceHeaders(
  accountId: string,
  deviceId: string | null,
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  const token = await clientToken(accountId, 600, undefined, deviceId === null ? {} : { device_id: deviceId });
  return { authorization: `Bearer ${token}`, "content-type": "application/json", ...extra };
}

/** A device id no other test uses. */
export function newDeviceId(label = "phone"): string {
  return `${label}-${crypto.randomUUID()}`;
}

export interface DeviceJson {
  device_id: string;
  name: string;
  state: "pending" | "registered";
  effective_at: string;
  last_used_at: string | null;
}

/** PUT /v1/devices/current from `deviceId`, with `body` as given (a string is sent as is). */
export async function registerCurrent(
  accountId: string,
  deviceId: string,
  body: unknown = { name: "Pixel da Ana" },
  via: Caller = call,
): Promise<Response> {
  return via("/v1/devices/current", {
    method: "PUT",
    headers: await deviceHeaders(accountId, deviceId),
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** GET /v1/devices, asked from `deviceId`. */
export async function listDevices(accountId: string, deviceId: string, via: Caller = call): Promise<DeviceJson[]> {
  const response = await via("/v1/devices", { headers: await deviceHeaders(accountId, deviceId) });
  if (response.status !== 200) throw new Error(`GET /v1/devices answered ${response.status}`);
  return (await response.json<{ data: DeviceJson[] }>()).data;
}

/** DELETE /v1/devices/:device_id, asked from `fromDeviceId`. */
export async function removeDevice(accountId: string, fromDeviceId: string, deviceId: string): Promise<Response> {
  return call(`/v1/devices/${encodeURIComponent(deviceId)}`, {
    method: "DELETE",
    headers: await deviceHeaders(accountId, fromDeviceId),
  });
}

/** PUT /ops/accounts/:id/devices/:device_id as ops-token: registered at once. */
export function opsRegister(accountId: string, deviceId: string, name = "Registered at the branch"): Promise<Response> {
  return opsCall(`/ops/accounts/${accountId}/devices/${encodeURIComponent(deviceId)}`, { method: "PUT", body: JSON.stringify({ name }) });
}

/** DELETE /ops/accounts/:id/devices/:device_id as ops-token. */
export function opsRemove(accountId: string, deviceId: string): Promise<Response> {
  return opsCall(`/ops/accounts/${accountId}/devices/${encodeURIComponent(deviceId)}`, { method: "DELETE" });
}

/** POST `path` from `deviceId` with `body` under `idempotencyKey`. */
async function postFrom(path: string, accountId: string, deviceId: string, body: unknown, idempotencyKey: string, via: Caller) {
  return via(path, {
    method: "POST",
    headers: await deviceHeaders(accountId, deviceId, { "idempotency-key": idempotencyKey }),
    body: JSON.stringify(body),
  });
}

/** POST /v1/transfers from `deviceId`. */
export function transferFrom(
  accountId: string,
  deviceId: string,
  body: TransferBody & { scheduled_for?: string },
  idempotencyKey: string = crypto.randomUUID(),
  via: Caller = call,
): Promise<Response> {
  return postFrom("/v1/transfers", accountId, deviceId, body, idempotencyKey, via);
}

/** POST /v1/recurring-transfers from `deviceId`. */
export function recurringFrom(
  accountId: string,
  deviceId: string,
  body: Record<string, unknown>,
  idempotencyKey: string = crypto.randomUUID(),
): Promise<Response> {
  return postFrom("/v1/recurring-transfers", accountId, deviceId, body, idempotencyKey, call);
}
