// Accounts a test file funds, remembered so that its last test checks the invariants over its own
// accounts alone (the workerd projects share one database between files).
import { fundedAccount } from "./api.ts";

export interface AccountTracker {
  /** Every account `account` funded, in order. */
  used: string[];
  account(balanceCents: number): Promise<string>;
}

export function accountTracker(): AccountTracker {
  const used: string[] = [];
  return {
    used,
    async account(balanceCents) {
      const accountId = await fundedAccount(balanceCents);
      used.push(accountId);
      return accountId;
    },
  };
}
