// I13, the new-device cap's bookkeeping (CONTRACT §2 "Devices"): what each account's São Paulo
// day has used of it (limit_usage `new_device`) equals the amounts of that day's transfers from
// unregistered devices whose hold still holds or settled: consumed with the hold, given back
// exactly once when it is released, never for a refused transfer.
import type { PoolClient } from "@neondatabase/serverless";

export interface DeviceUsageViolation {
  subject: string;
  detail: string;
}

export async function deviceUsageChecks(db: PoolClient, scope: readonly string[] | null): Promise<DeviceUsageViolation[]> {
  const { rows } = await db.query<{ account_id: string; day: string; used: string; charged: string }>(
    `WITH charged AS (
       SELECT t.account_id, t.limit_day AS day, sum(t.amount_cents) AS cents
         FROM transfers t JOIN holds h ON h.id = t.id
        WHERE t.device_registered IS FALSE AND h.status IN ('held', 'settled') AND ($1::text[] IS NULL OR t.account_id = ANY($1))
        GROUP BY t.account_id, t.limit_day),
     used AS (
       SELECT account_id, starts_on AS day, used_cents AS cents FROM limit_usage
        WHERE period = 'new_device' AND ($1::text[] IS NULL OR account_id = ANY($1)))
     SELECT coalesce(c.account_id, u.account_id) AS account_id, coalesce(c.day, u.day)::text AS day,
            coalesce(u.cents, 0)::text AS used, coalesce(c.cents, 0)::text AS charged
       FROM charged c FULL JOIN used u ON u.account_id = c.account_id AND u.day = c.day
      WHERE coalesce(u.cents, 0) <> coalesce(c.cents, 0)`,
    [scope],
  );
  return rows.map((r) => ({
    subject: r.account_id,
    detail: `new-device usage of ${r.day} is ${r.used} but its unregistered devices' transfers hold or settled ${r.charged}`,
  }));
}
