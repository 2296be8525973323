// The key of a static code carries no type: it is inferred from its shape, then validated and
// normalised by the same rules as a key sent to POST /v1/transfers.

import { type PixKeyType, uuidPatternAnyCase } from "../lib/ids.ts";
import { normalisePixKey } from "./key.ts";

export type StaticKeyResult = { ok: true; pixKey: string; pixKeyType: PixKeyType } | { ok: false; message: string };

// Some generators write the random key without its dashes; the directory knows it dashed.
const undashedUuid = /^[0-9a-f]{32}$/i;

/** The shapes do not overlap: only an email has '@', only a phone starts with '+', and CPF (11) and CNPJ (14) differ in length. */
export function inferPixKeyType(key: string): PixKeyType | null {
  if (uuidPatternAnyCase.test(key) || undashedUuid.test(key)) return "evp";
  if (key.includes("@")) return "email";
  if (key.startsWith("+")) return "phone";
  if (/^\d{11}$/.test(key)) return "cpf";
  if (/^[0-9A-Za-z]{12}\d{2}$/.test(key)) return "cnpj";
  return null;
}

export function staticKeyOf(key: string): StaticKeyResult {
  const pixKeyType = inferPixKeyType(key);
  if (pixKeyType === null) {
    return { ok: false, message: "The code's key is not a Pix key: not a CPF, CNPJ, email, phone (+55...) or random key (UUID)." };
  }
  const written = pixKeyType === "evp" && undashedUuid.test(key) ? dashed(key) : key;
  const normalised = normalisePixKey(pixKeyType, written);
  if (!normalised.ok)
    return { ok: false, message: `The code's key looks like a ${pixKeyType} key but is not valid: ${normalised.message}` };
  return { ok: true, pixKey: normalised.key, pixKeyType };
}

function dashed(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
