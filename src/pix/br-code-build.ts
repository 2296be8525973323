// Writes a BR Code from its fields: the inverse of parseBrCode, used to make codes (the sandbox,
// tests) and checked by it: what this returns is exactly what parsing its text gives back.
//
//   buildBrCode({ kind: "static", pixKey: "10000000108", pixKeyType: "cpf", amountCents: 1050, ... })
//     // { ok: true, code: { text: "00020126...6304ABCD", ... } }

import { noTxid } from "./additional-data.ts";
import { amountTextFromCents } from "./amount.ts";
import { type BrCodeField, type BrCodeFields, type BrCodeProblem, type BrCodeResult, brCodeProblem } from "./br-code-model.ts";
import { parseBrCode } from "./br-code-parse.ts";
import { crcHex } from "./crc16.ts";
import { pixGui } from "./merchant-account.ts";
import { encodeTlv } from "./tlv.ts";

const initiationCodes = { reusable: "11", single_use: "12" } as const;

/** Fields are written in id order (EMV fixes only 00 first and 63 last), so extras go where their ids put them. */
export function buildBrCode(fields: BrCodeFields): BrCodeResult {
  const problems: BrCodeProblem[] = [];
  const template = (id: string, children: readonly BrCodeField[]): BrCodeField => ({ id, value: encodeAll(id, children, problems) });

  const account = template("26", [
    { id: "00", value: pixGui },
    fields.kind === "static" ? { id: "01", value: fields.pixKey } : { id: "25", value: fields.url },
    ...optional("02", fields.info),
    ...fields.extraAccountFields,
  ]);
  const additional = template("62", [{ id: "05", value: fields.txid ?? noTxid }, ...fields.extraAdditionalFields]);
  let amount: BrCodeField[] = [];
  if (fields.amountCents !== null) {
    const amountText = amountTextFromCents(fields.amountCents);
    if (amountText === null)
      problems.push(brCodeProblem("invalid_field", "54", "The amount is a whole number of centavos, 1 to 999999999999."));
    else amount = [{ id: "54", value: amountText }];
  }
  const body = encodeAll(
    "",
    [
      { id: "00", value: "01" },
      ...optional("01", fields.initiationMethod === null ? null : initiationCodes[fields.initiationMethod]),
      account,
      { id: "52", value: fields.merchantCategoryCode },
      { id: "53", value: "986" },
      ...amount,
      { id: "58", value: "BR" },
      { id: "59", value: fields.merchantName },
      { id: "60", value: fields.merchantCity },
      ...optional("61", fields.postalCode),
      additional,
      ...fields.extraFields,
    ],
    problems,
  );
  if (problems.length > 0) return { ok: false, problems };
  const unsigned = `${body}6304`;
  const parsed = parseBrCode(`${unsigned}${crcHex(unsigned)}`);
  if (parsed.ok && parsed.code.kind === "static" && fields.kind === "static") {
    // The parser infers and normalises the key; a caller's key of another type or form would not round-trip.
    if (parsed.code.pixKey !== fields.pixKey || parsed.code.pixKeyType !== fields.pixKeyType) {
      return {
        ok: false,
        problems: [
          brCodeProblem(
            "invalid_field",
            "26.01",
            `The key is not a normalised ${fields.pixKeyType} key (it reads as ${parsed.code.pixKeyType}).`,
          ),
        ],
      };
    }
  }
  return parsed;
}

function optional(id: string, value: string | null): BrCodeField[] {
  return value === null ? [] : [{ id, value }];
}

/** Encodes in id order; a field TLV cannot carry is reported and left out. */
function encodeAll(parentPath: string, fields: readonly BrCodeField[], problems: BrCodeProblem[]): string {
  let text = "";
  for (const field of [...fields].sort((a, b) => a.id.localeCompare(b.id))) {
    const encoded = encodeTlv(parentPath, field.id, field.value);
    if (encoded.ok) text += encoded.text;
    else problems.push(encoded.problem);
  }
  return text;
}
