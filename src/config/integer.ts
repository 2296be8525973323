// Integer variables: plain decimal digits within a named range, so a typo ("10s", "1e3") is a
// configuration problem rather than, say, a zero-length timeout.

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
