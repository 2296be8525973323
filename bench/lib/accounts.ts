// Funded customer accounts for the load, created through the ledger's own functions in one
// statement each (setup is not measured, so it may batch).
import type { Pool } from "@neondatabase/serverless";
import { type BenchDb, benchPool } from "./db.ts";

/** Enough that a run of one-cent holds can never exhaust an account. */
export const seedBalanceCents = 1_000_000_000_000;

export function accountIds(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(6, "0")}`);
}

export async function seedAccounts(pool: Pool, ids: readonly string[], balanceCents = seedBalanceCents): Promise<void> {
  await pool.query("SELECT ledger_create_account(id) FROM unnest($1::text[]) AS id", [ids]);
  const { rows } = await pool.query<{ result: string }>(
    "SELECT ledger_credit('bench-seed:' || id, id, $2) AS result FROM unnest($1::text[]) AS id",
    [ids, balanceCents],
  );
  // A repeat run of a section finds its accounts already seeded: that is fine.
  const refused = rows.filter((row) => row.result !== "credited" && row.result !== "already_credited");
  if (refused.length > 0) throw new Error(`seeding credited only ${rows.length - refused.length} of ${ids.length} accounts`);
}

/** Seeds the accounts over a pool of its own, ended afterwards. */
export async function seedAccountsIn(db: BenchDb, ids: readonly string[]): Promise<void> {
  const setup = benchPool(db, 1, "bench-setup");
  try {
    await seedAccounts(setup, ids);
  } finally {
    await setup.end();
  }
}
