// An account's rules as the console shows them: what is left of today and of the night window,
// the increases still waiting, and the directory-lookup budget. Read at the request's instants:
// the limits at business time (src/clock/), like the rules that spend them; the lookup budget at
// the wall clock, like the route that spends it (a rate limit, not a calendar rule).
import type { z } from "zod";
import type { RuleSettings } from "../../config/rule-settings.ts";
import { limitsSchema } from "../../contract/schemas.ts";
import type { Queryable } from "../../db/queryable.ts";
import { limitsFor } from "../../limits/store.ts";
import { type LookupBudgetView, lookupBudgetAt } from "../../lookup/budget.ts";

export interface AccountLimitsView {
  limits: z.infer<typeof limitsSchema>;
  lookupBudget: LookupBudgetView;
}

export async function readAccountLimits(
  db: Queryable,
  accountId: string,
  at: { businessNowMs: number; wallNowMs: number },
  rules: RuleSettings,
): Promise<AccountLimitsView | null> {
  const [limits, lookupBudget] = await Promise.all([
    limitsFor(db, accountId, at.businessNowMs, rules),
    lookupBudgetAt(db, accountId, at.wallNowMs),
  ]);
  if (limits === null) return null;
  return { limits: limitsSchema.parse(limits), lookupBudget };
}
