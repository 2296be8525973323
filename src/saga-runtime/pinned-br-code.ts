// A dynamic BR Code resolved again before a send, judged against what the transfer holds: the
// saga core's BrCodeCheck. Pure. The transfer holds the amount and key the code resolved to when
// it was opened, which the limits, anti-fraud and the hold judged; the provider pays the charge
// as it is when the Pix leaves, so anything else it asks for now must not be sent.
import type { BrCodeResolution } from "../provider/port.ts";
import type { BrCodeCheck } from "../saga/answers.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";

/** Refusals that say the charge was paid (Efí's CONCLUIDA, a generic `paid`), by whoever paid it. */
const paidCodePattern = /concluida|paid|pago/i;

export function brCodeCheckOf(held: Pick<SagaRecord, "amountCents" | "pixKey" | "pixKeyType">, resolution: BrCodeResolution): BrCodeCheck {
  switch (resolution.kind) {
    case "unknown":
      return { kind: "unknown", why: resolution.why };
    case "refused":
      // A charge already paid may have been paid by this very transfer (a send whose answer was
      // lost, a status read that lags): not a change; the status checks will say whose it was.
      if (paidCodePattern.test(resolution.code)) return { kind: "unknown", why: `charge paid (${resolution.code})` };
      // Expired, removed, unknown: the provider's own word that the charge cannot be paid now.
      return { kind: "changed", what: `no longer payable: ${resolution.code}` };
    case "resolved": {
      const now = resolution.payment;
      if (now.pixKey !== held.pixKey || now.pixKeyType !== held.pixKeyType) return { kind: "changed", what: "key" };
      // No amount is "the payer chooses": the order's own amount is what is paid (and the
      // provider refuses to pay an open charge without one), so only another amount changes it.
      if (now.amountCents !== null && now.amountCents !== held.amountCents) {
        return { kind: "changed", what: `amount ${held.amountCents} -> ${now.amountCents}` };
      }
      return { kind: "unchanged" };
    }
  }
}
