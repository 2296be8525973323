// Why money came back, in our four words, from what a provider says: the ISO 20022 return codes
// Pix uses (MD06 the recipient returned it, FR01 fraud - the Central Bank's MED, BE08 a bank's
// operational failure; SL02 and any other code), the Pix API's `natureza` of a devolução
// (ORIGINAL, MED_FRAUDE, MED_OPERACIONAL, RETIRADA) or one of our own words (the generic API, §4).
import { type ReturnReason, returnReasons } from "../saga/returns.ts";

const reasonByCode: Readonly<Record<string, ReturnReason>> = {
  MD06: "returned_by_recipient",
  FR01: "fraud",
  BE08: "operational_failure",
  SL02: "other",
  ORIGINAL: "returned_by_recipient",
  MED_FRAUDE: "fraud",
  MED_OPERACIONAL: "operational_failure",
  RETIRADA: "other",
};

/** Never refuses: money that came back for a reason we do not know still came back. */
export function returnReasonOf(codeOrReason: string | null | undefined): ReturnReason {
  if (codeOrReason === null || codeOrReason === undefined) return "other";
  if ((returnReasons as readonly string[]).includes(codeOrReason)) return codeOrReason as ReturnReason;
  return reasonByCode[codeOrReason.toUpperCase()] ?? "other";
}
