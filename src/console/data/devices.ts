// An account's devices for the console: what the client sees (state now, last use) and who
// registered each (`client`, or the operator), oldest first. At most devicesPerAccountMax rows.

import type { Queryable } from "../../db/queryable.ts";
import type { DeviceResource } from "../../devices/store.ts";

export interface DeviceView extends DeviceResource {
  registered_by: string;
  created_at: string;
}

export async function readDevices(db: Queryable, accountId: string, nowMs: number): Promise<DeviceView[]> {
  const { rows } = await db.query<{ device: DeviceView }>(
    `SELECT device_json(d, ms_to_timestamptz($2)) || jsonb_build_object('registered_by', d.registered_by, 'created_at', rfc3339(d.created_at)) AS device
       FROM devices d WHERE d.account_id = $1 ORDER BY d.created_at, d.device_id`,
    [accountId, nowMs],
  );
  return rows.map((r) => r.device);
}
