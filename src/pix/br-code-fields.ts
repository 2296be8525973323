// Reads the top-level fields of a code whose envelope (TLV, CRC, no duplicates) is sound into a
// BrCode, collecting every problem rather than stopping at the first.
import { readAdditionalData } from "./additional-data.ts";
import { amountCentsFromText } from "./amount.ts";
import {
  type BrCode,
  type BrCodeField,
  type BrCodeProblem,
  type BrCodeResult,
  brCodeProblem,
  type InitiationMethod,
  merchantCityLengthMax,
  merchantNameLengthMax,
  postalCodeLengthMax,
} from "./br-code-model.ts";
import { readMerchantAccount } from "./merchant-account.ts";
import type { TlvField } from "./tlv.ts";

/** Interpreted here (00 and 63 by the envelope); any other id is kept in `extraFields`. */
const knownIds = new Set(["00", "01", "26", "52", "53", "54", "58", "59", "60", "61", "62", "63"]);
/** Tip or convenience fee (55 indicator, 56 fixed, 57 percentage): they change what the payer owes, and Pix has no such thing. */
const unsupportedIds = new Set(["55", "56", "57"]);

export function interpretFields(text: string, fields: readonly TlvField[]): BrCodeResult {
  const problems: BrCodeProblem[] = [];
  const byId = new Map(fields.map((field) => [field.id, field.value]));
  const required = (id: string, name: string): string | null => {
    const value = byId.get(id);
    if (value === undefined) problems.push(brCodeProblem("missing_field", id, `Field ${id} (${name}) is required.`));
    return value ?? null;
  };
  const invalid = (id: string, message: string): null => {
    problems.push(brCodeProblem("invalid_field", id, message));
    return null;
  };

  const initiationText = byId.get("01");
  const initiationMethod = initiationText === undefined ? null : initiationOf(initiationText, invalid);

  const accountText = required("26", "the Pix merchant account");
  const account = accountText === null ? null : readMerchantAccount(accountText);
  if (account !== null && !account.ok) problems.push(...account.problems);

  const merchantCategoryCode = required("52", "merchant category code");
  if (merchantCategoryCode !== null && !/^\d{4}$/.test(merchantCategoryCode)) invalid("52", "The merchant category code is four digits.");
  const currency = required("53", "currency");
  if (currency !== null && currency !== "986") invalid("53", "A Pix code's currency is 986 (reais).");

  const amountText = byId.get("54");
  const amount = amountText === undefined ? null : amountCentsFromText(amountText);
  if (amount !== null && !amount.ok) invalid("54", amount.message);

  const country = required("58", "country");
  if (country !== null && country !== "BR") invalid("58", "A Pix code's country is BR.");
  const merchantName = required("59", "merchant name");
  if (merchantName !== null) checkText("59", "merchant name", merchantName, merchantNameLengthMax, invalid);
  const merchantCity = required("60", "merchant city");
  if (merchantCity !== null) checkText("60", "merchant city", merchantCity, merchantCityLengthMax, invalid);
  const postalCode = byId.get("61") ?? null;
  if (postalCode !== null) checkText("61", "postal code", postalCode, postalCodeLengthMax, invalid);

  const additionalText = required("62", "additional data with the txid");
  const kind = account?.ok === true ? account.account.kind : "static";
  const additional = additionalText === null ? null : readAdditionalData(additionalText, kind);
  if (additional !== null && !additional.ok) problems.push(...additional.problems);

  const extraFields: BrCodeField[] = [];
  for (const field of fields) {
    if (unsupportedIds.has(field.id)) {
      problems.push(
        brCodeProblem("unsupported_field", field.id, `Field ${field.id} asks for a tip or fee, which a Pix payment cannot carry.`),
      );
    } else if (!knownIds.has(field.id)) {
      extraFields.push({ id: field.id, value: field.value });
    }
  }

  // Every null below was reported as a problem, so the checks only narrow the types.
  if (problems.length > 0 || account?.ok !== true || additional?.ok !== true || amount?.ok === false) return { ok: false, problems };
  if (merchantCategoryCode === null || merchantName === null || merchantCity === null) return { ok: false, problems };
  const code: BrCode = {
    ...account.account,
    text,
    initiationMethod,
    info: account.info,
    merchantCategoryCode,
    amountCents: amount === null ? null : amount.amountCents,
    merchantName,
    merchantCity,
    postalCode,
    txid: additional.txid,
    extraFields,
    extraAccountFields: account.extraFields,
    extraAdditionalFields: additional.extraFields,
  };
  return { ok: true, code };
}

function initiationOf(value: string, invalid: (id: string, message: string) => null): InitiationMethod | null {
  if (value === "11") return "reusable";
  if (value === "12") return "single_use";
  return invalid("01", "The point of initiation method is 11 (reusable) or 12 (single use).");
}

/** Lengths are already 1 to 99 by TLV; all blank would show the payer nothing. */
function checkText(id: string, name: string, value: string, lengthMax: number, invalid: (id: string, message: string) => null): void {
  if (value.length > lengthMax) invalid(id, `The ${name} is at most ${lengthMax} characters; it is ${value.length}.`);
  else if (value.trim().length === 0) invalid(id, `The ${name} is blank.`);
}
