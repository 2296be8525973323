// POST /v1/br-codes/preview (CONTRACT §2): what a pasted Pix Copia e Cola asks for, before the
// payer confirms. A static code is read here; a dynamic one is resolved through the provider.
// Nothing is written either way.
import { Hono } from "hono";
import { z } from "zod";
import type { BrCodePreviewBody } from "../contract/schemas.ts";
import { balance } from "../ledger/ledger.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { maxBodyBytes } from "./body-limit.ts";
import { parseBrCodeInput, type ReadBrCode, resolveDynamicBrCode } from "./br-code-input.ts";
import { withRequestDb } from "./db.ts";
import { limitTransferRate } from "./rate-limit.ts";
import { jsonBody } from "./validation.ts";

export const previewBrCodeBody = z.strictObject({
  br_code: z.string().max(maxBodyBytes).describe("A Pix Copia e Cola (EMV BR Code), static or dynamic"),
});

export const brCodeRoutes = new Hono<AppEnv>();

brCodeRoutes.post("/preview", limitTransferRate("br-code-preview"), jsonBody(previewBrCodeBody), async (c) => {
  const parsed = parseBrCodeInput(c, c.req.valid("json").br_code);
  if (!parsed.ok) return parsed.response;
  if (parsed.kind === "static") return c.json(previewJson(parsed.code));
  // A provider call only for an account that exists (403 otherwise, as everywhere under /v1).
  const account = await withRequestDb(c, (db) => balance(db, c.get("accountId")));
  if (!account) return problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." });
  const resolved = await resolveDynamicBrCode(c, parsed);
  if (!resolved.ok) return resolved.response;
  return c.json(previewJson(resolved.code));
});

function previewJson(code: ReadBrCode): BrCodePreviewBody {
  return {
    kind: code.kind,
    pix_key: code.pixKey,
    pix_key_type: code.pixKeyType,
    amount_cents: code.amountCents,
    merchant_name: code.merchantName,
    merchant_city: code.merchantCity,
    txid: code.txid,
  };
}
