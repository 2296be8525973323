// A return's one entry point: transfer_return_apply, one round trip that credits the money back
// at most once per return id (whoever reports it first) and never beyond the transfer's amount.
import type { Queryable } from "../db/queryable.ts";
import { asResult } from "../ledger/results.ts";
import type { ProviderReturn } from "../saga/returns.ts";

/** The first effect, then the repeat, then refusals (a refusal writes nothing). */
export const returnApplyResults = [
  "applied",
  "already_applied",
  "exists_with_different_fields",
  "transfer_not_found",
  "transfer_not_completed",
  "exceeds_transfer_amount",
] as const;
export type ReturnApplyResult = (typeof returnApplyResults)[number];

export async function transferReturnApply(db: Queryable, transferId: string, found: ProviderReturn): Promise<ReturnApplyResult> {
  const { rows } = await db.query<{ result: unknown }>("SELECT transfer_return_apply($1, $2, $3, $4, $5) AS result", [
    transferId,
    found.id,
    found.amountCents,
    found.reason,
    new Date(found.atMs).toISOString(),
  ]);
  return asResult(returnApplyResults, rows[0]?.result);
}
