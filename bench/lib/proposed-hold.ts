// A diagnostic, not a metric with a target: ledger_hold as it is, but taking the account row
// lock before it inserts the hold row. The hold row's foreign key takes KEY SHARE on the account
// row; on a contended account that share joins another transaction's update lock and
// PostgreSQL must create a MultiXact for it (several per hold under 8 clients). Locking first
// makes the key check find the row already locked by its own transaction. Built from the live
// function's text in the bench's throwaway database only; if that text changed, it is skipped.
import type { Pool } from "@neondatabase/serverless";

export const proposedHoldFunction = "bench_ledger_hold_locked_first";

const existenceCheck = "PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer';";
const lockingCheck = "PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer' FOR NO KEY UPDATE;";

/** Creates the variant; false when ledger_hold no longer has the statement it rewrites. */
export async function createProposedHold(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ definition: string }>("SELECT pg_get_functiondef('ledger_hold'::regproc) AS definition");
  const definition = rows[0]?.definition ?? "";
  if (!definition.includes(existenceCheck)) return false;
  const variant = definition
    .replace(/FUNCTION public\.ledger_hold\(/, `FUNCTION public.${proposedHoldFunction}(`)
    .replace(existenceCheck, lockingCheck);
  await pool.query(variant);
  return true;
}
