// How the provider has been answering lately, from the evidence the saga records anyway (one row
// per send and status check): the degraded-PSP alert's input (src/alerts/provider-health.ts).
// One statement over the view provider_calls (transfer_history_calls_by_kind_time and
// provider_calls_apart_by_kind_time): index ranges per kind, as GET /ops/overview reads the same
// calls; nothing is written for it.
import type { Queryable } from "../db/queryable.ts";

export interface ProviderCallFigures {
  calls: number;
  /** An `unknown:` outcome: a call that said nothing definitive (timeout, 5xx, unreadable). */
  unknown: number;
}

/** The sends and status checks recorded since `sinceMs` (a wall-clock instant, not business time). */
export async function providerCallFiguresSince(db: Queryable, sinceMs: number): Promise<ProviderCallFigures> {
  const { rows } = await db.query<{ calls: string; unknown: string }>(
    `SELECT count(*) AS calls, count(*) FILTER (WHERE p.outcome LIKE 'unknown:%') AS unknown
       FROM provider_calls p
      WHERE p.kind = ANY('{send,status}'::text[]) AND p.at >= ms_to_timestamptz($1)`,
    [sinceMs],
  );
  return { calls: Number(rows[0]?.calls ?? 0), unknown: Number(rows[0]?.unknown ?? 0) };
}
