// An account's devices (CONTRACT §2 "Devices"): each operation is one SQL function call (one
// round trip). The instant is passed in (business time): it decides what is pending or
// registered, and when a client's registration takes effect.

import type { Queryable } from "../db/queryable.ts";
import { devicesPerAccountMax } from "./bounds.ts";

/** A device as its client sees it, rendered by drizzle/functions/device_json.sql. */
export interface DeviceResource {
  device_id: string;
  name: string;
  state: "pending" | "registered";
  effective_at: string;
  last_used_at: string | null;
}

export interface DeviceRegistration {
  accountId: string;
  deviceId: string;
  name: string;
  nowMs: number;
  /** DEVICE_REGISTRATION_DELAY_MS: how long after nowMs a client's registration takes effect. */
  delayMs: number;
  /** null: the client asks (effective after delayMs); an operator's actor: registered at once, audited. */
  actor: string | null;
}

export type RegisterResult =
  | { outcome: "created" | "updated" | "unchanged"; device: DeviceResource }
  | { outcome: "account_not_found" | "too_many" };

export type RemoveResult = "removed" | "not_found" | "account_not_found";

async function callResult<T>(db: Queryable, sql: string, values: unknown[]): Promise<T> {
  const { rows } = await db.query<{ result: T }>(sql, values);
  const row = rows[0];
  if (row === undefined) throw new Error(`no answer from: ${sql}`);
  return row.result;
}

/** The account's devices, oldest first; null when there is no such customer account. */
export function devicesOf(db: Queryable, accountId: string, nowMs: number): Promise<{ data: DeviceResource[] } | null> {
  return callResult(db, "SELECT devices_json($1, ms_to_timestamptz($2)) AS result", [accountId, nowMs]);
}

export async function registerDevice(db: Queryable, registration: DeviceRegistration): Promise<RegisterResult> {
  const result = await callResult<RegisterResult>(db, "SELECT device_register($1, $2, $3, ms_to_timestamptz($4), $5, $6, $7) AS result", [
    registration.accountId,
    registration.deviceId,
    registration.name,
    registration.nowMs,
    registration.delayMs,
    registration.actor,
    devicesPerAccountMax,
  ]);
  if (!["created", "updated", "unchanged", "account_not_found", "too_many"].includes(result.outcome)) {
    throw new Error(`device_register answered an unknown outcome: ${String(result.outcome)}`);
  }
  return result;
}

/** An operator's removal: audited with the device as it was at `nowMs` (business time). */
export interface OperatorRemoval {
  actor: string;
  nowMs: number;
}

/** Removes it at once; `by` null for the client (nothing audited), else the operator. */
export async function removeDevice(db: Queryable, accountId: string, deviceId: string, by: OperatorRemoval | null): Promise<RemoveResult> {
  const result = await callResult<string>(db, "SELECT device_remove($1, $2, ms_to_timestamptz($3), $4) AS result", [
    accountId,
    deviceId,
    by?.nowMs ?? null,
    by?.actor ?? null,
  ]);
  if (result === "removed" || result === "not_found" || result === "account_not_found") return result;
  throw new Error(`device_remove answered an unknown outcome: ${result}`);
}
