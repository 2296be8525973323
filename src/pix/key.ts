// Pix keys (CONTRACT §2): validated and normalised once, at the edge, to the form we store
// and send to the provider. Pure; an invalid key is a value, not an exception.
//
//   normalisePixKey("cpf", "100.000.001-08")  // { ok: true, key: "10000000108" }
//   normalisePixKey("phone", "11 9999-9999")  // { ok: false, message: "..." }
//   isPixKeyType(value)                        // narrows a string to PixKeyType
import { type PixKeyType, pixKeyTypes, uuidPattern } from "../lib/ids.ts";

export type PixKeyResult = { ok: true; key: string } | { ok: false; message: string };

/** The DICT limit for email keys. */
export const emailKeyLengthMax = 77;
/** Longer than any valid key with punctuation (a formatted CNPJ is 18): rejected before any regex runs. */
export const pixKeyInputLengthMax = 100;

export function isPixKeyType(value: string): value is PixKeyType {
  return (pixKeyTypes as readonly string[]).includes(value);
}

/** Surrounding whitespace is dropped for every type: pasted keys often carry it. */
export function normalisePixKey(type: PixKeyType, raw: string): PixKeyResult {
  if (raw.length > pixKeyInputLengthMax) return invalid(`A Pix key is at most ${pixKeyInputLengthMax} characters.`);
  const input = raw.trim();
  switch (type) {
    case "cpf":
      return normaliseCpf(input);
    case "cnpj":
      return normaliseCnpj(input);
    case "email":
      return normaliseEmail(input);
    case "phone":
      return normalisePhone(input);
    case "evp":
      return normaliseEvp(input);
  }
}

function invalid(message: string): PixKeyResult {
  return { ok: false, message };
}

function normaliseCpf(input: string): PixKeyResult {
  const cpf = input.replace(/[.-]/g, "");
  if (!/^\d{11}$/.test(cpf)) return invalid("A CPF is 11 digits; only '.' and '-' may separate them.");
  if (allSameCharacter(cpf)) return invalid("This CPF is not valid.");
  if (!hasValidCheckDigits(cpf, 9)) return invalid("This CPF's check digits do not match.");
  return { ok: true, key: cpf };
}

/** The alphanumeric CNPJ (from July 2026): letters or digits in the 12 base positions, check digits numeric. */
function normaliseCnpj(input: string): PixKeyResult {
  const cnpj = input.replace(/[./-]/g, "").toUpperCase();
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj)) {
    return invalid("A CNPJ is 12 letters or digits then 2 check digits; only '.', '/' and '-' may separate them.");
  }
  if (allSameCharacter(cnpj)) return invalid("This CNPJ is not valid.");
  if (!hasValidCheckDigits(cnpj, 12)) return invalid("This CNPJ's check digits do not match.");
  return { ok: true, key: cnpj };
}

function allSameCharacter(value: string): boolean {
  return [...value].every((char) => char === value[0]);
}

/**
 * The Receita Federal modulo-11 check: each character counts as its ASCII code minus 48
 * (digits 0-9, letters A=17 ... Z=42), weighted right to left 2, 3, ... and back to 2 after
 * `weightMax`; remainder < 2 gives 0, else 11 - remainder. CPF uses weights up to 11 (they never
 * wrap for its 10 positions), CNPJ up to 9. Exported for the tests that check it against
 * published examples.
 */
export function checkDigit(base: string, weightMax: number): number {
  let sum = 0;
  for (let i = 0; i < base.length; i++) {
    const weight = 2 + ((base.length - 1 - i) % (weightMax - 1));
    sum += (base.charCodeAt(i) - 48) * weight;
  }
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** `baseLength` characters, then two check digits: the second one covers the first. */
function hasValidCheckDigits(value: string, baseLength: 9 | 12): boolean {
  const weightMax = baseLength === 9 ? 11 : 9;
  const first = checkDigit(value.slice(0, baseLength), weightMax);
  const second = checkDigit(value.slice(0, baseLength + 1), weightMax);
  return value.slice(baseLength) === `${first}${second}`;
}

// Deliberately stricter than RFC 5322 (no quoted local parts, no IP literals): a Pix key is an
// address a bank app typed, and an exotic one is far likelier a mistake than a real key.
const emailPattern = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const emailLocalPartLengthMax = 64;

function normaliseEmail(input: string): PixKeyResult {
  const email = input.toLowerCase();
  if (email.length > emailKeyLengthMax) return invalid(`An email key is at most ${emailKeyLengthMax} characters.`);
  if (!emailPattern.test(email)) return invalid("This is not a valid email address.");
  if (email.indexOf("@") > emailLocalPartLengthMax) return invalid("The part before '@' is at most 64 characters.");
  return { ok: true, key: email };
}

// +55, a two-digit area code (DDD: no 0 in either digit), then 8 digits (landline) or 9 digits
// starting with 9 (mobile). Only E.164 is accepted, so the stored key is what the client sent.
const phonePattern = /^\+55[1-9][1-9](\d{8}|9\d{8})$/;

function normalisePhone(input: string): PixKeyResult {
  if (!phonePattern.test(input)) {
    return invalid("A phone key is E.164: +55, the 2-digit area code, then 8 digits or 9 starting with 9 (e.g. +5511987654321).");
  }
  return { ok: true, key: input };
}

function normaliseEvp(input: string): PixKeyResult {
  const evp = input.toLowerCase();
  if (!uuidPattern.test(evp)) return invalid("A random key (EVP) is a UUID like 123e4567-e89b-12d3-a456-426614174000.");
  return { ok: true, key: evp };
}
