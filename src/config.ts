// Reading variables: parsed and bounded in one place, so a bad value fails loudly at the first
// request rather than in the middle of a transfer.

/** Reads an integer variable within [min, max]; absent or empty means the default. */
export function readIntegerVariable(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  // Plain decimal digits only: Number() would also take "1e3" or "0x10".
  const value = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`configuration: ${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The largest amount one Pix may carry (CONTRACT §1 MAX_TRANSFER_CENTS). */
export function maxTransferCents(raw: string | undefined): number {
  return readIntegerVariable("MAX_TRANSFER_CENTS", raw, 10_000_000, 1, Number.MAX_SAFE_INTEGER);
}

/** CONTRACT §5: an operator credit above this waits for a second operator's approval. */
export function creditApprovalAboveCents(raw: string | undefined): number {
  return readIntegerVariable("OPS_CREDIT_APPROVAL_ABOVE_CENTS", raw, 1_000_000, 0, Number.MAX_SAFE_INTEGER);
}
