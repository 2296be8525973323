// BR Codes for the API tests, written with the project's own builder (which checks them with the
// parser): static codes naming a key, and dynamic ones whose payload URL the sandbox resolves
// deterministically (src/provider/sandbox/br-codes.ts: the last path segment may name a key).

import type { PixKeyType } from "../../src/lib/ids.ts";
import type { BrCodeFields } from "../../src/pix/br-code.ts";
import { buildBrCode } from "../../src/pix/br-code.ts";

const common = {
  initiationMethod: null,
  info: null,
  merchantCategoryCode: "0000",
  merchantName: "LOJA DA ANA",
  merchantCity: "SAO PAULO",
  postalCode: null,
  extraFields: [],
  extraAccountFields: [],
  extraAdditionalFields: [],
} as const;

function built(fields: BrCodeFields): string {
  const result = buildBrCode(fields);
  if (!result.ok) throw new Error(`test BR Code not built: ${JSON.stringify(result.problems)}`);
  return result.code.text;
}

export function staticBrCode(options: { pixKey: string; pixKeyType: PixKeyType; amountCents: number | null; txid?: string }): string {
  return built({ ...common, kind: "static", ...options, txid: options.txid ?? "PEDIDO42" });
}

/** `payload` is the URL's last segment: a Pix key, `expired`, `unavailable`, or anything (a made-up key). */
export function dynamicBrCode(payload: string, amountCents: number | null): string {
  return built({
    ...common,
    kind: "dynamic",
    initiationMethod: "single_use",
    url: `pix.sandbox.test/qr/v2/${payload}`,
    amountCents,
    txid: null,
  });
}

/** The same code with its last CRC digit changed. */
export function withWrongCrc(code: string): string {
  const last = code.at(-1) === "0" ? "1" : "0";
  return `${code.slice(0, -1)}${last}`;
}
