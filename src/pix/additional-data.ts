// Field 62, the additional data template: the txid (62.05) a static code's merchant reconciles
// by, `***` when there is none. Other subfields (62.50 and the rest) are kept, not read.
import {
  type BrCodeField,
  type BrCodeFields,
  type BrCodeProblem,
  brCodeProblem,
  dynamicTxidLengthMax,
  staticTxidLengthMax,
} from "./br-code-model.ts";
import { firstDuplicateId, readTlv } from "./tlv.ts";

export const noTxid = "***";

export type AdditionalDataResult =
  | { ok: true; txid: string | null; extraFields: readonly BrCodeField[] }
  | { ok: false; problems: readonly BrCodeProblem[] };

const txidPattern = /^[A-Za-z0-9]+$/;

/** A dynamic code should write `***` (its txid is in the payload), but many write the charge's own. */
export function readAdditionalData(value: string, kind: BrCodeFields["kind"]): AdditionalDataResult {
  const tlv = readTlv(value, "62");
  if (!tlv.ok) return { ok: false, problems: [tlv.problem] };
  const duplicate = firstDuplicateId(tlv.fields);
  if (duplicate !== null) return refuse("duplicate_field", `62.${duplicate}`, `Field 62.${duplicate} appears more than once.`);
  const txid = tlv.fields.find((field) => field.id === "05")?.value;
  if (txid === undefined) return refuse("missing_field", "62.05", `Field 62.05 (the txid, ${noTxid} for none) is required.`);
  const txidLengthMax = kind === "static" ? staticTxidLengthMax : dynamicTxidLengthMax;
  if (txid !== noTxid && (!txidPattern.test(txid) || txid.length > txidLengthMax)) {
    return refuse("invalid_field", "62.05", `The txid is 1 to ${txidLengthMax} letters or digits, or ${noTxid} for none.`);
  }
  const extraFields = tlv.fields.filter((field) => field.id !== "05");
  return { ok: true, txid: txid === noTxid ? null : txid, extraFields };
}

function refuse(code: BrCodeProblem["code"], at: string, message: string): AdditionalDataResult {
  return { ok: false, problems: [brCodeProblem(code, at, message)] };
}
