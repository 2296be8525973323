// Ledger results are values, ordered like TigerBeetle's: the first effect, then repeats, then
// refusals. The SQL functions in drizzle/functions/ return exactly these strings.

export const holdResults = [
  "held",
  "already_held",
  "insufficient_funds",
  "already_refused",
  "exists_with_different_fields",
  "account_not_found",
] as const;
export type HoldResult = (typeof holdResults)[number];

export const settleResults = ["settled", "already_settled", "already_released", "already_refused", "hold_not_found"] as const;
export type SettleResult = (typeof settleResults)[number];

export const releaseResults = ["released", "already_released", "already_settled", "already_refused", "hold_not_found"] as const;
export type ReleaseResult = (typeof releaseResults)[number];

export const creditResults = ["credited", "already_credited", "exists_with_different_fields", "account_not_found"] as const;
export type CreditResult = (typeof creditResults)[number];

export const createAccountResults = ["created", "already_exists"] as const;
export type CreateAccountResult = (typeof createAccountResults)[number];

/** Narrows a string from the database to a closed result set; anything else is a bug. */
export function asResult<T extends string>(allowed: readonly T[], value: unknown): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`ledger returned an unknown result: ${String(value)}`);
}
