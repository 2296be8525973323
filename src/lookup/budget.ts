// The per-account directory-lookup budget (CONTRACT §2), modelled on the Central Bank's DICT
// rate limit for a person: a bucket of 100 that refills 2 a minute; a hit costs 1, a miss 20 (it
// is what key enumeration looks like). Kept in Postgres (lookup_budget_*.sql), one statement each.
import type { Queryable } from "../db/queryable.ts";

export const lookupBudget = { tokensMax: 100, tokenMs: 30_000, hitCost: 1, missCost: 20 } as const;

export type Reservation =
  | { outcome: "reserved"; reservedTokens: number }
  | { outcome: "refused"; retryAfterMs: number }
  | { outcome: "account_not_found" };

/** Takes the worst case (a miss) before the provider is asked, or says when one token will be there. */
export async function reserveLookup(db: Queryable, accountId: string, nowMs: number): Promise<Reservation> {
  const { rows } = await db.query<{ r: { outcome: string; reserved_tokens?: number; retry_after_ms?: number } }>(
    "SELECT lookup_budget_reserve($1, ms_to_timestamptz($2), $3, $4, $5) AS r",
    [accountId, nowMs, lookupBudget.tokensMax, lookupBudget.tokenMs, lookupBudget.missCost],
  );
  const r = rows[0]?.r;
  switch (r?.outcome) {
    case "reserved":
      return { outcome: "reserved", reservedTokens: Number(r.reserved_tokens) };
    case "refused":
      return { outcome: "refused", retryAfterMs: Number(r.retry_after_ms) };
    case "account_not_found":
      return { outcome: "account_not_found" };
    default:
      throw new Error(`lookup_budget_reserve answered ${JSON.stringify(r)}`);
  }
}

/** The real cost of a reserved lookup: hitCost, missCost, or 0 when the answer said nothing. */
export async function settleLookup(db: Queryable, accountId: string, reservedTokens: number, costTokens: number): Promise<void> {
  await db.query("SELECT lookup_budget_settle($1, $2, $3, $4)", [accountId, reservedTokens, costTokens, lookupBudget.tokenMs]);
}

export interface LookupBudgetView {
  tokens: number;
  tokens_max: number;
  full_at: string;
}

export async function lookupBudgetAt(db: Queryable, accountId: string, nowMs: number): Promise<LookupBudgetView> {
  const { rows } = await db.query<{ budget: LookupBudgetView }>("SELECT lookup_budget_json($1, ms_to_timestamptz($2), $3, $4) AS budget", [
    accountId,
    nowMs,
    lookupBudget.tokensMax,
    lookupBudget.tokenMs,
  ]);
  const budget = rows[0]?.budget;
  if (!budget) throw new Error("lookup_budget_json returned nothing");
  return budget;
}
