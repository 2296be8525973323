// EMV TLV: a two-digit id, a two-digit length, then that many characters. Reads one level; a
// template's value is read again by whoever interprets it, so nesting is as deep as the caller
// goes (two levels here: the top and the templates 26 and 62).
import { type BrCodeProblem, brCodeProblem, fieldLengthMax } from "./br-code-model.ts";

export type TlvField = { readonly id: string; readonly value: string };

export type TlvResult = { ok: true; fields: readonly TlvField[] } | { ok: false; problem: BrCodeProblem };

const twoDigits = /^\d{2}$/;

/** `parentPath` is `""` at the top, else the template's id, so problems name `"26.01"`. */
export function readTlv(text: string, parentPath: string): TlvResult {
  const fields: TlvField[] = [];
  let offset = 0;
  while (offset < text.length) {
    const id = text.slice(offset, offset + 2);
    const lengthText = text.slice(offset + 2, offset + 4);
    const where = parentPath === "" ? "the code" : `field ${parentPath}`;
    if (!twoDigits.test(id) || !twoDigits.test(lengthText)) {
      return malformed(
        parentPath,
        `${capitalised(where)} is cut short or not TLV at character ${offset + 1}: expected a two-digit id and length.`,
      );
    }
    const path = fieldPath(parentPath, id);
    const length = Number(lengthText);
    if (length === 0) return malformed(path, `Field ${path} has length 00; an empty field is not allowed.`);
    const remaining = text.length - offset - 4;
    if (length > remaining) {
      return malformed(path, `Field ${path} declares ${length} characters but only ${remaining} remain: the code is cut short.`);
    }
    fields.push({ id, value: text.slice(offset + 4, offset + 4 + length) });
    offset += 4 + length;
  }
  return { ok: true, fields };
}

/** Refuses what TLV cannot carry rather than writing a length that lies. */
export function encodeTlv(
  parentPath: string,
  id: string,
  value: string,
): { ok: true; text: string } | { ok: false; problem: BrCodeProblem } {
  if (value.length === 0 || value.length > fieldLengthMax) {
    const path = fieldPath(parentPath, id);
    return malformed(path, `Field ${path} must be 1 to ${fieldLengthMax} characters; it is ${value.length}.`);
  }
  return { ok: true, text: `${id}${String(value.length).padStart(2, "0")}${value}` };
}

export function fieldPath(parentPath: string, id: string): string {
  return parentPath === "" ? id : `${parentPath}.${id}`;
}

function malformed(at: string, message: string): { ok: false; problem: BrCodeProblem } {
  return { ok: false, problem: brCodeProblem("malformed", at, message) };
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function firstDuplicateId(fields: readonly TlvField[]): string | null {
  const seen = new Set<string>();
  for (const field of fields) {
    if (seen.has(field.id)) return field.id;
    seen.add(field.id);
  }
  return null;
}
