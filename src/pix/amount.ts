// Field 54, the amount in reais as decimal text ("12.34"), to and from integer centavos. Only
// string and integer operations: no float ever holds money, so 0.1 + 0.2 cannot happen here.
import { amountCentsMax } from "./br-code-model.ts";

// Up to ten digits of reais; the centavos may be absent ("10") or one digit ("0.5"), as EMV
// allows "digits aligned with the currency" and generators in the wild write both.
const amountPattern = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

export type AmountCentsResult = { ok: true; amountCents: number } | { ok: false; message: string };

export function amountCentsFromText(text: string): AmountCentsResult {
  const match = amountPattern.exec(text);
  if (match === null) return { ok: false, message: "The amount is reais with '.' and up to two decimals (e.g. 12.34)." };
  const reais = match[1] ?? "0";
  const centavos = (match[2] ?? "").padEnd(2, "0");
  // Both parts are at most ten digits, so Number() is exact and the product a safe integer.
  const amountCents = Number(reais) * 100 + Number(centavos);
  if (amountCents === 0) return { ok: false, message: "The amount must be more than zero." };
  return { ok: true, amountCents };
}

/** The canonical form the builder writes: no leading zeros, always two decimals. */
export function amountTextFromCents(amountCents: number): string | null {
  if (!Number.isSafeInteger(amountCents) || amountCents < 1 || amountCents > amountCentsMax) return null;
  const digits = String(amountCents).padStart(3, "0");
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
