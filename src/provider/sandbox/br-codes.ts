// How the sandbox resolves a dynamic BR Code (CONTRACT §4, sandbox): deterministically from the
// code alone, for both dialects. The payload URL's last path segment chooses:
//
//   .../<a Pix key>     that key, so pix.sandbox.test/qr/reject@sandbox.test keeps reject@'s behaviour
//   .../expired         the charge was paid or expired: refused (`expired`)
//   .../unavailable     the payload cannot be fetched now: 503, unknown
//   anything else       a random key (EVP) derived from the URL
//
// The amount is the code's own (field 54; none: the payer chooses), the merchant its 59 and 60,
// the txid its own or one derived from the URL. Pure; what a receiver changed in the charge
// since is laid over it by txid (charges.ts).
import type { PixKeyType } from "../../lib/ids.ts";
import { parseBrCode } from "../../pix/br-code.ts";
import { staticKeyOf } from "../../pix/static-key.ts";

export interface SandboxResolvedCode {
  pixKey: string;
  pixKeyType: PixKeyType;
  amountCents: number | null;
  merchantName: string;
  merchantCity: string;
  txid: string;
  /** Changes the receiver made to the charge (charges.ts); 0 for a charge as its code says. */
  revision: number;
  /** The receiver removed the charge: nothing can pay it. */
  removed: boolean;
}

export type SandboxResolution =
  | { ok: true; payment: SandboxResolvedCode }
  | { ok: false; httpStatus: 400 | 422 | 503; code: "invalid_br_code" | "not_dynamic" | "expired" | "unavailable" };

export function resolveSandboxBrCode(text: string): SandboxResolution {
  const parsed = parseBrCode(text);
  if (!parsed.ok) return { ok: false, httpStatus: 400, code: "invalid_br_code" };
  const code = parsed.code;
  if (code.kind !== "dynamic") return { ok: false, httpStatus: 400, code: "not_dynamic" };
  const lastSegment = code.url.slice(code.url.lastIndexOf("/") + 1);
  if (lastSegment === "expired") return { ok: false, httpStatus: 422, code: "expired" };
  if (lastSegment === "unavailable") return { ok: false, httpStatus: 503, code: "unavailable" };
  const named = lastSegment === "" ? null : staticKeyOf(decodeSegment(lastSegment));
  const key = named?.ok ? { pixKey: named.pixKey, pixKeyType: named.pixKeyType } : { pixKey: evpOf(code.url), pixKeyType: "evp" as const };
  return {
    ok: true,
    payment: {
      ...key,
      amountCents: code.amountCents,
      merchantName: code.merchantName,
      merchantCity: code.merchantCity,
      txid: code.txid ?? `sandbox${hexOf(code.url, 3)}`.slice(0, 35),
      revision: 0,
      removed: false,
    },
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A v4-shaped UUID from the URL: the same URL always names the same made-up key. */
function evpOf(url: string): string {
  const hex = hexOf(url, 4);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `words` FNV-1a hashes of the text, each with its own seed, as 8 hex digits each. Not cryptographic: a name, not a secret. */
function hexOf(text: string, words: number): string {
  let hex = "";
  for (let word = 0; word < words; word++) {
    let hash = (0x811c9dc5 ^ word) >>> 0;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    hex += hash.toString(16).padStart(8, "0");
  }
  return hex;
}

export type SandboxPayee = { ok: true; pixKey: string; pixKeyType: PixKeyType } | { ok: false; httpStatus: 400 | 422 | 503; code: string };

/**
 * Who a send of a BR Code pays: what the code resolves to now (`resolved`, its charge's changes
 * included). A code's amount is the charge's: a send of another amount is refused
 * (`amount_mismatch`), as a PSP paying a charge would; a removed charge is refused (`removed`).
 */
export function payeeOfCode(amountCents: number, resolved: SandboxResolution): SandboxPayee {
  if (!resolved.ok) return resolved;
  const { payment } = resolved;
  if (payment.removed) return { ok: false, httpStatus: 422, code: "removed" };
  if (payment.amountCents !== null && payment.amountCents !== amountCents) return { ok: false, httpStatus: 422, code: "amount_mismatch" };
  return { ok: true, pixKey: payment.pixKey, pixKeyType: payment.pixKeyType };
}
