// GET /ops/overview's contestations, as of now: how many are open (not final: open or
// submitted, still waiting for a decision) and the nearest deadline among them. One statement
// on the active-by-deadline index.
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";

export async function openContestationsSummary(db: Queryable): Promise<JsonObject> {
  const { rows } = await db.query<{ open: string | number; nearest: string | null }>(
    `SELECT count(*) AS open, rfc3339(min(deadline_at)) AS nearest FROM contestations WHERE state IN ('open', 'submitted')`,
  );
  const row = rows[0];
  return { open: Number(row?.open ?? 0), nearest_deadline_at: row?.nearest ?? null };
}
