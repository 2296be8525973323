// I14: a São Paulo day's limit usage equals its transfers held or paid (limit_day); a night
// window's equals the transfers charged to it (night_evening), each held, paid or still
// scheduled: a compensated or canceled transfer has given its amount back.
import type { PoolClient } from "@neondatabase/serverless";
import { type Finding, finding } from "./invariant-finding.ts";

const scoped = "($1::text[] IS NULL OR account_id = ANY($1))";

export async function usageChecks(db: PoolClient, scope: readonly string[] | null): Promise<Finding[]> {
  const { rows } = await db.query<{ account_id: string; period: string; starts_on: string; used: string; counted: string }>(
    `SELECT account_id, period, starts_on::text, sum(used)::text AS used, sum(counted)::text AS counted FROM (
       SELECT account_id, period, starts_on, used_cents AS used, 0 AS counted FROM limit_usage
        WHERE period IN ('day', 'night') AND ${scoped}
       UNION ALL
       SELECT t.account_id, 'day', t.limit_day, 0, t.amount_cents FROM transfers t JOIN holds h ON h.id = t.id
        WHERE t.limit_day IS NOT NULL AND h.status IN ('held', 'settled') AND ($1::text[] IS NULL OR t.account_id = ANY($1))
       UNION ALL
       SELECT t.account_id, 'night', t.night_evening, 0, t.amount_cents FROM transfers t
        WHERE t.night_evening IS NOT NULL AND ($1::text[] IS NULL OR t.account_id = ANY($1))) usage
      GROUP BY account_id, period, starts_on HAVING sum(used) <> sum(counted)`,
    [scope],
  );
  const found = rows.map((u) =>
    finding(u.account_id, `${u.period} from ${u.starts_on}: ${u.used} used, but its transfers add up to ${u.counted}`),
  );
  const stale = await db.query<{ id: string; state: string }>(
    `SELECT t.id::text, t.state FROM transfers t
      WHERE t.night_evening IS NOT NULL AND t.state IN ('compensated', 'canceled') AND ($1::text[] IS NULL OR t.account_id = ANY($1))`,
    [scope],
  );
  for (const t of stale.rows) found.push(finding(t.id, `${t.state}, yet still charged to a night`));
  return found;
}
