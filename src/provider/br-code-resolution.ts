// What a provider says a dynamic BR Code (a payload URL) asks for: the port's answer to
// `resolveBrCode` (CONTRACT §4: POST /br-codes/resolve; §4b: Efí's qrcodes/detalhar). Resolving
// moves no money; like every provider answer it is untrusted until validated here.
import { z } from "zod";
import type { PixKeyType } from "../lib/ids.ts";
import { staticKeyOf } from "../pix/static-key.ts";

// The answer types live with the port (port.ts), so the port imports nothing back from here.
export type { BrCodeResolution, ResolvedBrCode } from "./port.ts";

/** A payload's receiver name and city may be longer than a code's 25 and 15: the API's own bounds. */
export const resolvedNameLengthMax = 140;
export const resolvedCityLengthMax = 60;
/** The Pix API's txid: 26 to 35 letters and digits; read up to 35 of them. */
export const resolvedTxidLengthMax = 35;

export const resolvedNameSchema = z.string().min(1).max(resolvedNameLengthMax);
export const resolvedCitySchema = z.string().min(1).max(resolvedCityLengthMax);
export const resolvedTxidSchema = z.string().regex(new RegExp(`^[A-Za-z0-9]{1,${resolvedTxidLengthMax}}$`));
/** At most what one transfer could ever carry; the API's own limits apply after. */
export const resolvedAmountCentsSchema = z.number().int().min(1).max(999_999_999_999);

/** The key a provider resolved, validated like a client's (its type inferred when absent or checked when given). */
export function resolvedKeyOf(raw: string, claimedType: PixKeyType | null): { pixKey: string; pixKeyType: PixKeyType } | null {
  const key = staticKeyOf(raw.trim());
  if (!key.ok) return null;
  if (claimedType !== null && claimedType !== key.pixKeyType) return null;
  return { pixKey: key.pixKey, pixKeyType: key.pixKeyType };
}
