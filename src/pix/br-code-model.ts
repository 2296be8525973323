// The parsed form of a BR Code (Pix Copia e Cola, EMV QRCPS-MPM) and the bounds every part of
// one is held to. A code is either static (it names a Pix key) or dynamic (it names a URL whose
// signed payload the provider resolves); both carry the merchant's name and city.
import type { PixKeyType } from "../lib/ids.ts";

/** The EMV QR limit: a longer string is not a QR-encodable code; it also bounds the field count (each is >= 4 characters). */
export const brCodeLengthMax = 512;
/** A TLV length is two digits; 00 is no field at all, so EMV forbids it. */
export const fieldLengthMax = 99;
/** EMV and the Central Bank's manual: 25 for the name, 15 for the city, 10 for the postal code. */
export const merchantNameLengthMax = 25;
export const merchantCityLengthMax = 15;
export const postalCodeLengthMax = 10;
/** The manual's bound for the payload URL of a dynamic code (written without `https://`). */
export const payloadUrlLengthMax = 77;
/** The manual's bound for a static code's txid (letters and digits only); a dynamic code's is the API's 26 to 35. */
export const staticTxidLengthMax = 25;
export const dynamicTxidLengthMax = 35;
/** Ten digits of reais then two of centavos: 9,999,999,999.99, well inside a safe integer of centavos. */
export const amountCentsMax = 999_999_999_999;

/** A field this module does not interpret, kept verbatim so that nothing in a code is lost. */
export type BrCodeField = { readonly id: string; readonly value: string };

/** Field 01: `11` the code may be paid many times, `12` once; most static codes omit it. */
export type InitiationMethod = "reusable" | "single_use";

type BrCodeCommon = {
  readonly initiationMethod: InitiationMethod | null;
  /** 26.02: a free text the merchant shows the payer. */
  readonly info: string | null;
  /** 52: `0000` when the merchant gives none. */
  readonly merchantCategoryCode: string;
  /** 54: absent when the payer chooses the amount. */
  readonly amountCents: number | null;
  readonly merchantName: string;
  readonly merchantCity: string;
  /** 61 */
  readonly postalCode: string | null;
  /** 62.05; `***` in the code (no txid) is null here. */
  readonly txid: string | null;
  /** Top-level fields this module does not interpret (other schemes' accounts, 64, 65-99 templates), in code order. */
  readonly extraFields: readonly BrCodeField[];
  /** Fields inside the Pix merchant account (26) other than 00, 01, 02 and 25, in code order. */
  readonly extraAccountFields: readonly BrCodeField[];
  /** Fields inside the additional data (62) other than 05, in code order. */
  readonly extraAdditionalFields: readonly BrCodeField[];
};

export type StaticBrCodeFields = BrCodeCommon & {
  readonly kind: "static";
  /** Normalised as the API stores keys (src/pix/key.ts). */
  readonly pixKey: string;
  readonly pixKeyType: PixKeyType;
};

export type DynamicBrCodeFields = BrCodeCommon & {
  readonly kind: "dynamic";
  /** 26.25, as written in the code: host and path, `https://` implied. */
  readonly url: string;
};

/** What a code says: the builder's input and, with its text, the parser's output. */
export type BrCodeFields = StaticBrCodeFields | DynamicBrCodeFields;

/** A parsed code: its fields and its text (trimmed of surrounding whitespace, otherwise as given). */
export type BrCode = BrCodeFields & { readonly text: string };

export type BrCodeProblemCode =
  /** Nothing but whitespace. */
  | "empty"
  | "too_long"
  /** A character outside printable ASCII, the EMV character set. */
  | "invalid_character"
  /** The TLV structure is broken: a cut-short field, a non-numeric id or length, a zero length. */
  | "malformed"
  | "crc_mismatch"
  | "missing_field"
  | "duplicate_field"
  | "invalid_field"
  /** A field that is well formed but that a Pix payment cannot honour (tip and convenience fees). */
  | "unsupported_field";

/**
 * Why a code was refused, for a 400 problem+json: `at` is the EMV path of the field (`"54"`,
 * `"26.01"`) or `""` for the code as a whole; `message` is safe to show the payer.
 */
export type BrCodeProblem = { readonly code: BrCodeProblemCode; readonly at: string; readonly message: string };

/** `problems` is never empty. */
export type BrCodeResult = { ok: true; code: BrCode } | { ok: false; problems: readonly BrCodeProblem[] };

export function brCodeProblem(code: BrCodeProblemCode, at: string, message: string): BrCodeProblem {
  return { code, at, message };
}
