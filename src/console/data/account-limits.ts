// An account's rules as the console shows them: what is left of today and of the night window,
// the increases still waiting, and the directory-lookup budget. Read at the request's instant.
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
  nowMs: number,
  rules: RuleSettings,
): Promise<AccountLimitsView | null> {
  const [limits, lookupBudget] = await Promise.all([limitsFor(db, accountId, nowMs, rules), lookupBudgetAt(db, accountId, nowMs)]);
  if (limits === null) return null;
  return { limits: limitsSchema.parse(limits), lookupBudget };
}
