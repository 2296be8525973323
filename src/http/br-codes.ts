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
import { jsonRequestBody, jsonResponse, problemResponse, retryAfterHeader, transferRateText } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { clientAuthResponses, clientSecurity } from "./openapi/security.ts";
import { limitTransferRate } from "./rate-limit.ts";
import { jsonBody } from "./validation.ts";

export const previewBrCodeBody = z.strictObject({
  br_code: z.string().max(maxBodyBytes).describe("A Pix Copia e Cola (EMV BR Code), static or dynamic"),
});

export const brCodeRoutes = new Hono<AppEnv>();

const previewBrCodeDoc = documented({
  operationId: "previewBrCode",
  summary: "Read a Pix Copia e Cola before paying it",
  description: [
    "What a BR Code asks for: the key, the amount (null when the payer chooses), the merchant and the txid. A static code is read as it is; a dynamic code (a payload URL) is resolved by the provider, and its answer is shown. Nothing is written.",
    `**Rate limit**: ${transferRateText}, a budget of its own. Past it: \`429\` with \`Retry-After\`.`,
  ].join("\n\n"),
  tags: ["transfers"],
  security: clientSecurity,
  requestBody: jsonRequestBody("PreviewBrCodeRequest"),
  responses: {
    "200": jsonResponse("What the code asks for.", "BrCodePreview"),
    "400": problemResponse("A malformed code or a wrong CRC (`/invalid-br-code`, `errors` name the EMV field), or an invalid body."),
    ...clientAuthResponses,
    "422": problemResponse("The provider refused this dynamic code: expired, paid or unknown (`/br-code-unresolvable`)."),
    "429": problemResponse("Too many previews for this account (`type` ends in `/rate-limited`).", retryAfterHeader),
    "503": problemResponse(
      "The provider could not resolve the code now (or the token's signing keys cannot be fetched): retry after `Retry-After`.",
      retryAfterHeader,
    ),
  },
});

brCodeRoutes.post("/preview", previewBrCodeDoc, limitTransferRate("br-code-preview"), jsonBody(previewBrCodeBody), async (c) => {
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
