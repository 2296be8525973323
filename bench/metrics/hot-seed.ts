// The one account every hot-account measurement holds on, funded so that no run can drain it.

import { seedAccounts } from "../lib/accounts.ts";
import type { BenchContext } from "../lib/context.ts";
import { benchPool } from "../lib/db.ts";

export const hotAccountId = "bench-hot";
const hotBalanceCents = 1_000_000_000_000_000;

/** Idempotent: the hot and the latency sections each make sure it exists. */
export async function seedHotAccount(context: BenchContext): Promise<void> {
  const setup = benchPool(context.cluster, 1, "bench-setup");
  try {
    await seedAccounts(setup, [hotAccountId], hotBalanceCents);
  } finally {
    await setup.end();
  }
}
