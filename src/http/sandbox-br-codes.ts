// Dynamic BR Codes in the sandbox (CONTRACT §4): the PSP's resolve, and the drill where the
// receiver changes a live charge (amount, key, removal) before the Pix leaves, as Efí's
// `PATCH /v2/cob/{txid}` allows. Mounted by sandbox.ts.
import { Hono } from "hono";
import { z } from "zod";
import { pixKeyTypes } from "../lib/ids.ts";
import { brCodeLengthMax } from "../pix/br-code.ts";
import { normalisePixKey } from "../pix/key.ts";
import { resolveLive, sandbox } from "../provider/sandbox/reply.ts";
import { callObject } from "../web/object-call.ts";
import { jsonRequestBody, pathParameter } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { pspResponse, sandboxOperation } from "./openapi/sandbox.ts";
import type { SandboxEnv } from "./sandbox-env.ts";
import { providerSecurity, requireProviderToken } from "./sandbox-psp-token.ts";

export const sandboxBrCodeRoutes = new Hono<SandboxEnv>();

export const resolveBodySchema = z.object({ br_code: z.string().min(1).max(brCodeLengthMax) });

const sandboxResolveBrCodeDoc = documented(
  sandboxOperation({
    operationId: "sandboxResolveBrCode",
    summary: "PSP: resolve a dynamic BR Code",
    description:
      "`{ br_code }` → the fields of `POST /v1/br-codes/preview`, resolved from the code and what its receiver changed since (`PATCH /sandbox/provider/charges/{txid}`): the payload URL's last path segment may name a Pix key (a magic key keeps its behaviour), `expired` is refused (`422 { code: expired }`), `unavailable` answers 503; any other URL resolves to a random key derived from it. The amount, merchant and txid are the code's own, unless the receiver changed them; a removed charge is refused (`422 { code: removed }`). `PUT /sandbox/provider/pix/{idempotency_key}` with `br_code` instead of the key fields pays it (`422 amount_mismatch` for another amount).",
    security: providerSecurity,
    requestBody: jsonRequestBody("ProviderResolveRequest"),
    responses: {
      "200": pspResponse("What the code asks for."),
      "4XX": pspResponse("Refused: `{ code }` (`invalid_br_code`, `not_dynamic`, `expired`, `removed`)."),
      "5XX": pspResponse("Unavailable: ask again."),
    },
  }),
);

// A dynamic BR Code's payload, resolved from the code (br-codes.ts) and what its receiver changed since (charges.ts).
sandboxBrCodeRoutes.post("/provider/br-codes/resolve", sandboxResolveBrCodeDoc, requireProviderToken(), async (c) => {
  if (await callObject(c, "sandbox.in_outage", () => sandbox(c).inOutage())) return c.json({ code: "unavailable" }, 503);
  const body = resolveBodySchema.safeParse(await c.req.json().catch(() => null));
  if (!body.success) return c.json({ code: "invalid_request" }, 400);
  const resolved = await callObject(c, "sandbox.charge", () => resolveLive(c, body.data.br_code));
  if (!resolved.ok) return c.json({ code: resolved.code }, resolved.httpStatus);
  const { payment } = resolved;
  if (payment.removed) return c.json({ code: "removed" }, 422);
  return c.json({
    kind: "dynamic",
    pix_key: payment.pixKey,
    pix_key_type: payment.pixKeyType,
    amount_cents: payment.amountCents,
    merchant_name: payment.merchantName,
    merchant_city: payment.merchantCity,
    txid: payment.txid,
  });
});

/** A receiver's change to a live charge; the key's two fields go together. */
export const chargeChangeBodySchema = z
  .strictObject({
    amount_cents: z.number().int().min(1).max(1_000_000_000_000).optional(),
    pix_key: z.string().min(1).max(140).optional(),
    pix_key_type: z.enum(pixKeyTypes).optional(),
    status: z.literal("removed").optional(),
  })
  .refine((b) => (b.pix_key === undefined) === (b.pix_key_type === undefined));

const sandboxChangeChargeDoc = documented(
  sandboxOperation({
    operationId: "sandboxChangeCharge",
    summary: "Drill: the receiver changes a live dynamic charge",
    description:
      "Not part of a real PSP's payer API: the receiver of the dynamic charge `txid` (as `POST /sandbox/provider/br-codes/resolve` answers it) raises its amount, moves it to another key or removes it, as a receiver can until the Pix leaves (Efí: `PATCH /v2/cob/{txid}`, which Efí's dialect serves too). Resolving and paying the code read the change; the transfer that held the old charge is not sent.",
    security: [],
    parameters: [pathParameter("txid", "The charge's txid: 1 to 35 letters and digits.", { type: "string" })],
    requestBody: jsonRequestBody("SandboxChargeChangeRequest"),
    responses: {
      "200": pspResponse("The change as kept: `{ txid, amount_cents, pix_key, pix_key_type, status: active | removed, revision }`."),
      "400": pspResponse("Invalid body or txid: `{ code: invalid_request | invalid_key }`."),
    },
  }),
);

// Test seam (not part of a real PSP's payer API): the receiver of the dynamic charge `txid` (the
// txid a resolve answers) raises its amount, moves it to another key or removes it.
sandboxBrCodeRoutes.patch("/provider/charges/:txid", sandboxChangeChargeDoc, async (c) => {
  const txid = c.req.param("txid");
  const body = chargeChangeBodySchema.safeParse(await c.req.json().catch(() => null));
  if (!/^[A-Za-z0-9]{1,35}$/.test(txid) || !body.success) return c.json({ code: "invalid_request" }, 400);
  const { amount_cents: amountCents, pix_key: rawKey, pix_key_type: pixKeyType, status } = body.data;
  const key = rawKey !== undefined && pixKeyType !== undefined ? normalisePixKey(pixKeyType, rawKey) : null;
  if (key !== null && !key.ok) return c.json({ code: "invalid_key" }, 400);
  const change = {
    ...(amountCents === undefined ? {} : { amountCents }),
    ...(key === null || pixKeyType === undefined ? {} : { key: { pixKey: key.key, pixKeyType } }),
    ...(status === "removed" ? { removed: true as const } : {}),
  };
  const charge = await callObject(c, "sandbox.change_charge", () => sandbox(c).changeCharge(txid, change));
  return c.json({
    txid: charge.txid,
    amount_cents: charge.amountCents,
    pix_key: charge.key?.pixKey ?? null,
    pix_key_type: charge.key?.pixKeyType ?? null,
    status: charge.removed ? "removed" : "active",
    revision: charge.revision,
  });
});
