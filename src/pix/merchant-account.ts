// Field 26, the Pix merchant account: GUI br.gov.bcb.pix, then a key (static code) or a payload
// URL (dynamic code), and optional info for the payer.
import { type BrCodeField, type BrCodeProblem, brCodeProblem, payloadUrlLengthMax, type StaticBrCodeFields } from "./br-code-model.ts";
import { staticKeyOf } from "./static-key.ts";
import { firstDuplicateId, readTlv } from "./tlv.ts";

/** The Central Bank's GUI; EMV compares GUIs case-insensitively, and both cases are seen in the wild. */
export const pixGui = "br.gov.bcb.pix";

type Account = Pick<StaticBrCodeFields, "kind" | "pixKey" | "pixKeyType"> | { kind: "dynamic"; url: string };

export type MerchantAccountResult =
  | { ok: true; account: Account; info: string | null; extraFields: readonly BrCodeField[] }
  | { ok: false; problems: readonly BrCodeProblem[] };

const knownIds = new Set(["00", "01", "02", "25"]);
/** A URL is written without its scheme: the payer's app adds https://. */
const schemePrefix = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

export function readMerchantAccount(value: string): MerchantAccountResult {
  const tlv = readTlv(value, "26");
  if (!tlv.ok) return { ok: false, problems: [tlv.problem] };
  const duplicate = firstDuplicateId(tlv.fields);
  if (duplicate !== null) return refuse("duplicate_field", `26.${duplicate}`, `Field 26.${duplicate} appears more than once.`);
  const byId = new Map(tlv.fields.map((field) => [field.id, field.value]));

  const gui = byId.get("00");
  if (gui === undefined || gui.toLowerCase() !== pixGui) {
    return refuse("invalid_field", "26.00", `Field 26 is not a Pix account: its GUI (26.00) must be ${pixGui}.`);
  }
  const key = byId.get("01");
  const url = byId.get("25");
  const info = byId.get("02") ?? null;
  const extraFields = tlv.fields.filter((field) => !knownIds.has(field.id));
  if (key !== undefined && url !== undefined) {
    return refuse("invalid_field", "26", "A Pix account has a key (26.01) or a payload URL (26.25), not both.");
  }
  if (key !== undefined) {
    const staticKey = staticKeyOf(key);
    if (!staticKey.ok) return refuse("invalid_field", "26.01", staticKey.message);
    return { ok: true, account: { kind: "static", pixKey: staticKey.pixKey, pixKeyType: staticKey.pixKeyType }, info, extraFields };
  }
  if (url !== undefined) {
    const problem = urlProblem(url);
    if (problem !== null) return refuse("invalid_field", "26.25", problem);
    return { ok: true, account: { kind: "dynamic", url }, info, extraFields };
  }
  return refuse("missing_field", "26.01", "A Pix account needs a key (26.01) or a payload URL (26.25).");
}

function urlProblem(url: string): string | null {
  if (url.length > payloadUrlLengthMax) return `The payload URL is at most ${payloadUrlLengthMax} characters; it is ${url.length}.`;
  if (schemePrefix.test(url)) return "The payload URL is written without its scheme (https:// is implied).";
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?\/\S*$/.test(url))
    return "The payload URL is a host then a path, with no spaces (e.g. pix.example.com/qr/v2/...).";
  return null;
}

function refuse(code: BrCodeProblem["code"], at: string, message: string): MerchantAccountResult {
  return { ok: false, problems: [brCodeProblem(code, at, message)] };
}
