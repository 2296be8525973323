// Parses a pasted Pix Copia e Cola code. Pure: the text in, a value out, never a throw.
//
//   parseBrCode("00020126580014br.gov.bcb.pix0136123e4567-...63041D3D")
//     // { ok: true, code: { kind: "static", pixKey: "123e4567-...", pixKeyType: "evp", ... } }
//   parseBrCode("...63041D3E")  // { ok: false, problems: [{ code: "crc_mismatch", at: "63", ... }] }
//
// The envelope is checked first (size, characters, TLV, format indicator, CRC, duplicates) and
// stops at its first problem: past a broken structure or a wrong CRC nothing else is worth
// reporting, and a damaged copy is best told as such. The fields are then read all together.

import { interpretFields } from "./br-code-fields.ts";
import { type BrCodeProblem, type BrCodeResult, brCodeLengthMax, brCodeProblem } from "./br-code-model.ts";
import { crcHex } from "./crc16.ts";
import { firstDuplicateId, readTlv, type TlvField } from "./tlv.ts";

/** The text before the checksum's value ends with the CRC field's id and length. */
const crcFieldHeader = "6304";
const crcValuePattern = /^[0-9A-F]{4}$/;
/** Printable ASCII: EMV's common character set for every field but the alternate-language template. */
const outsideCharacterSet = /[^\x20-\x7E]/;

export function parseBrCode(raw: string): BrCodeResult {
  // Pasted codes often carry a newline or spaces around them; a code starts with 00 and ends
  // with hex digits, so trimming never removes a character of the code itself.
  const text = raw.trim();
  const envelope = readEnvelope(text);
  if (!envelope.ok) return { ok: false, problems: [envelope.problem] };
  return interpretFields(text, envelope.fields);
}

function readEnvelope(text: string): { ok: true; fields: readonly TlvField[] } | { ok: false; problem: BrCodeProblem } {
  if (text.length === 0) return refuse("empty", "", "The code is empty.");
  if (text.length > brCodeLengthMax) {
    return refuse("too_long", "", `A BR Code is at most ${brCodeLengthMax} characters; this one is ${text.length}.`);
  }
  const outside = outsideCharacterSet.exec(text);
  if (outside !== null) {
    return refuse("invalid_character", "", `The code has a character outside printable ASCII at position ${outside.index + 1}.`);
  }
  const tlv = readTlv(text, "");
  if (!tlv.ok) return { ok: false, problem: tlv.problem };
  const fields = tlv.fields;
  const first = fields[0];
  if (first === undefined || first.id !== "00" || first.value !== "01") {
    return refuse("invalid_field", "00", "A BR Code starts with its payload format indicator, 000201.");
  }
  const last = fields[fields.length - 1];
  if (last === undefined || last.id !== "63" || !text.endsWith(`${crcFieldHeader}${last.value}`)) {
    return refuse("missing_field", "63", "A BR Code ends with its CRC: 6304 then four hex digits.");
  }
  if (!crcValuePattern.test(last.value)) {
    return refuse("invalid_field", "63", "The CRC is four uppercase hex digits.");
  }
  const expectedCrc = crcHex(text.slice(0, -last.value.length));
  if (last.value !== expectedCrc) {
    return refuse("crc_mismatch", "63", "The code's CRC does not match its content: it was changed or copied incompletely.");
  }
  const duplicate = firstDuplicateId(fields);
  if (duplicate !== null) return refuse("duplicate_field", duplicate, `Field ${duplicate} appears more than once.`);
  return { ok: true, fields };
}

function refuse(code: BrCodeProblem["code"], at: string, message: string): { ok: false; problem: BrCodeProblem } {
  return { ok: false, problem: brCodeProblem(code, at, message) };
}
