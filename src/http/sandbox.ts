// The sandbox provider's HTTP API under /sandbox (CONTRACT §4): the PSP API the HTTP adapter
// speaks (PUT/GET /provider/pix/:key, GET /provider/dict/:key) and the inspection endpoints. PSP
// answers are `{code}` JSON like a real PSP's; only "the sandbox is off" is a problem+json 404 of
// our own API.
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { configOf } from "../config/isolate.ts";
import { pixKeyTypes } from "../lib/ids.ts";
import { brCodeLengthMax } from "../pix/br-code.ts";
import { isPixKeyType, normalisePixKey } from "../pix/key.ts";
import type { SandboxAnswer } from "../provider/sandbox/answers.ts";
import { payeeOfCode } from "../provider/sandbox/br-codes.ts";
import { isUnownedKey, sandboxOwnerOf } from "../provider/sandbox/dict.ts";
import { sandboxEfiRoutes } from "../provider/sandbox/efi-routes.ts";
import { answerWith, resolveLive, sandbox } from "../provider/sandbox/reply.ts";
import { statementWindowMsMax } from "../provider/statement.ts";
import { callObject } from "../web/object-call.ts";
import { notFound } from "../web/problem.ts";
import { jsonRequestBody, jsonResponse, pathParameter, problemResponse } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { pspResponse, sandboxOperation } from "./openapi/sandbox.ts";
import type { Parameter, SecurityRequirement } from "./openapi/types.ts";
import { sandboxClockRoutes } from "./sandbox-clock.ts";
import { sandboxContestationRoutes } from "./sandbox-contestations.ts";
import type { SandboxEnv } from "./sandbox-env.ts";

/** Same bound as the client API's Idempotency-Key: 1 to 255 printable ASCII characters. */
const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,255}$/);

const sendCommon = {
  amount_cents: z.number().int().min(1).max(1_000_000_000_000),
  description: z.string().max(140).nullable().optional(),
};

/** A key, or a dynamic BR Code the sandbox resolves (br-codes.ts). */
export const sendBodySchema = z.union([
  z.object({ ...sendCommon, pix_key: z.string().min(1).max(140), pix_key_type: z.enum(pixKeyTypes) }),
  z.object({ ...sendCommon, br_code: z.string().min(1).max(brCodeLengthMax) }),
]);

/** Payments per statement page; a day of tests spans several. */
export const statementPageItems = 100;

/** `from`/`to` RFC 3339 at most 24 h apart; `cursor` is an offset into the window's list. */
const statementQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
    cursor: z
      .string()
      .regex(/^\d{1,9}$/)
      .optional(),
  })
  .transform((q) => ({ fromMs: Date.parse(q.from), toMs: Date.parse(q.to), offset: Number(q.cursor ?? "0") }))
  .refine((q) => q.fromMs < q.toMs && q.toMs - q.fromMs <= statementWindowMsMax);

export const sandboxRoutes = new Hono<SandboxEnv>();

// Off means absent: production must not even reveal that the sandbox exists.
sandboxRoutes.use("*", async (c, next) => {
  const config = configOf(c.env);
  if (!config.ok || !config.config.sandboxEnabled) {
    return notFound(c, `Nothing at ${c.req.method} ${c.req.path}.`);
  }
  c.set("config", config.config);
  await next();
});

// Efí's dialect over the same payments (efi-routes.ts).
sandboxRoutes.route("/efi", sandboxEfiRoutes);

// The test clock (sandbox-clock.ts): business time moved forward for calendar rules.
sandboxRoutes.route("/clock", sandboxClockRoutes);

/** Longest outage one call can start: fault injection for tests and demos, bounded. */
export const outageDurationMsMax = 600_000;
export const outageBodySchema = z.strictObject({ duration_ms: z.number().int().min(0).max(outageDurationMsMax) });

const sandboxOutageDoc = documented(
  sandboxOperation({
    operationId: "sandboxOutage",
    summary: "Fault drill: take the PSP API down for a while",
    description: "Not part of a real PSP: its `/provider/pix` API answers `503 { code: unavailable }` until the outage ends.",
    security: [],
    requestBody: jsonRequestBody("SandboxOutageRequest"),
    responses: {
      "200": jsonResponse("When the outage ends.", "SandboxOutage"),
      "400": pspResponse("Invalid body: `{ code: invalid_request }`."),
    },
  }),
);

// Fault injection (not part of a real PSP): the PSP API answers 503 until the outage ends.
sandboxRoutes.post("/provider/outage", sandboxOutageDoc, async (c) => {
  const body = outageBodySchema.safeParse(await c.req.json().catch(() => null));
  if (!body.success) return c.json({ code: "invalid_request" }, 400);
  const { outageUntilMs } = await callObject(c, "sandbox.start_outage", () => sandbox(c).startOutage(body.data.duration_ms));
  return c.json({ outage_until: new Date(outageUntilMs).toISOString() });
});

const duringOutage: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  if (await callObject(c, "sandbox.in_outage", () => sandbox(c).inOutage())) return c.json({ code: "unavailable" }, 503);
  await next();
};
sandboxRoutes.use("/provider/pix/*", duringOutage);
sandboxRoutes.use("/provider/dict/*", duringOutage);
// The contestation API (sandbox-contestations.ts), behind the same token check as the rest.
sandboxRoutes.use("/provider/pix/:idempotency_key/contestations", requireProviderToken());
sandboxRoutes.use("/provider/contestations/*", requireProviderToken());
sandboxRoutes.route("/", sandboxContestationRoutes);

// `{}`: no token needed when PROVIDER_TOKEN is unset.
const providerSecurity: SecurityRequirement[] = [{ providerToken: [] }, {}];
const paymentKey = pathParameter("idempotency_key", "The payment's idempotency key (our transfer id).", { type: "string" });

const sandboxSendDoc = documented(
  sandboxOperation({
    operationId: "sandboxSend",
    summary: "PSP: send a Pix (idempotent PUT)",
    description:
      "The PSP API the saga's HTTP adapter speaks. The Pix key chooses the behaviour (CONTRACT §4's table); any other valid key is accepted and confirmed after `SANDBOX_CONFIRM_MS`. Checks `Authorization: Bearer <PROVIDER_TOKEN>` only when that is set.",
    security: providerSecurity,
    parameters: [paymentKey],
    requestBody: jsonRequestBody("ProviderSendRequest"),
    responses: {
      "201": pspResponse("Accepted (first time)."),
      "200": pspResponse("Accepted (a repeat: the same answer)."),
      "4XX": pspResponse("Rejected for good: `{ code }` (408, 409, 425 and 429 are not rejections)."),
      "5XX": pspResponse("Unknown outcome: `{ code }`."),
    },
  }),
);

sandboxRoutes.put("/provider/pix/:idempotency_key", sandboxSendDoc, requireProviderToken(), async (c) => {
  const key = idempotencyKeySchema.safeParse(c.req.param("idempotency_key"));
  const body = sendBodySchema.safeParse(await c.req.json().catch(() => null));
  if (!key.success || !body.success) return c.json({ code: "invalid_request" }, 400);
  const amountCents = body.data.amount_cents;
  const payee =
    "br_code" in body.data
      ? payeeOfCode(amountCents, await resolveLive(c, body.data.br_code))
      : ({ ok: true, pixKey: body.data.pix_key, pixKeyType: body.data.pix_key_type } as const);
  if (!payee.ok) return c.json({ code: payee.code }, payee.httpStatus);
  const provider = sandbox(c);
  await callObject(c, "sandbox.send", () => provider.sendStarted());
  try {
    const answer = await callObject<SandboxAnswer>(c, "sandbox.send", () =>
      provider.send({
        idempotencyKey: key.data,
        amountCents,
        pixKey: payee.pixKey,
        pixKeyType: payee.pixKeyType,
        confirmMs: c.var.config.sandboxConfirmMs,
        providerTimeoutMs: c.var.config.providerTimeoutMs,
        notFoundGraceMs: c.var.config.sagaTimings.notFoundGraceMs,
      }),
    );
    return await answerWith(c, answer);
  } finally {
    // Counting must never change the answer: a lost decrement only overstates concurrency.
    await provider.sendEnded().catch(() => undefined);
  }
});

const sandboxStatusDoc = documented(
  sandboxOperation({
    operationId: "sandboxStatus",
    summary: "PSP: status of a Pix",
    description: "`processing`, `confirmed` or `rejected`; `404` when the PSP never made it.",
    security: providerSecurity,
    parameters: [paymentKey],
    responses: {
      "200": pspResponse("The payment's status."),
      "404": pspResponse("Not found: `{ code: not_found }`."),
      "5XX": pspResponse("Unavailable: check again."),
    },
  }),
);

sandboxRoutes.get("/provider/pix/:idempotency_key", sandboxStatusDoc, requireProviderToken(), async (c) => {
  const key = idempotencyKeySchema.safeParse(c.req.param("idempotency_key"));
  if (!key.success) return c.json({ code: "invalid_request" }, 400);
  return answerWith(
    c,
    await callObject<SandboxAnswer>(c, "sandbox.status", () => sandbox(c).status(key.data, c.var.config.sagaTimings.notFoundGraceMs)),
  );
});

const keyParameters: Parameter[] = [
  pathParameter("key", "The Pix key, as for a transfer (CPF/CNPJ punctuation accepted; URL-encoded).", { type: "string" }),
  { name: "type", in: "query", required: true, description: "The key's type.", schema: { type: "string", enum: [...pixKeyTypes] } },
];

const sandboxDictDoc = documented(
  sandboxOperation({
    operationId: "sandboxDict",
    summary: "PSP: directory lookup",
    description:
      "`{ name, document, ispb, institution }`: a made-up owner, the same for a key every time, for every valid key; email keys beginning `unknown` and EVPs ending `0000` are `404`.",
    security: [{ providerToken: [] }, {}],
    parameters: keyParameters,
    responses: {
      "200": pspResponse("The key's owner."),
      "400": pspResponse("An invalid key or type: `{ code: invalid_request }`."),
      "404": pspResponse("No one holds this key: `{ code: not_found }`."),
      "503": pspResponse("During an outage."),
    },
  }),
);

// The directory (dict.ts): deterministic owners, keyed like transfers' keys.
sandboxRoutes.get("/provider/dict/:key", sandboxDictDoc, requireProviderToken(), (c) => {
  const type = c.req.query("type") ?? "";
  if (!isPixKeyType(type)) return c.json({ code: "invalid_request" }, 400);
  const key = normalisePixKey(type, c.req.param("key"));
  if (!key.ok) return c.json({ code: "invalid_request" }, 400);
  const query = { pixKey: key.key, pixKeyType: type };
  if (isUnownedKey(query)) return c.json({ code: "not_found" }, 404);
  return c.json(sandboxOwnerOf(query));
});

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
sandboxRoutes.post("/provider/br-codes/resolve", sandboxResolveBrCodeDoc, requireProviderToken(), async (c) => {
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
sandboxRoutes.patch("/provider/charges/:txid", sandboxChangeChargeDoc, async (c) => {
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

const sandboxStatementDoc = documented(
  sandboxOperation({
    operationId: "sandboxStatement",
    summary: "PSP: the statement for a window, paged",
    description:
      "Every payment whose send was received in `[from, to)` (RFC 3339, at most 24 hours apart), as its status answer says now (returns included), oldest first, 100 per page: `{ data, next_cursor }`. Ask again with `&cursor=<next_cursor>` until it is null. Efí's dialect serves the same under `/sandbox/efi/v2/gn/pix/enviados?inicio=&fim=&paginacao.paginaAtual=`.",
    security: providerSecurity,
    parameters: [
      { name: "from", in: "query", required: true, description: "RFC 3339.", schema: { type: "string", format: "date-time" } },
      {
        name: "to",
        in: "query",
        required: true,
        description: "RFC 3339, at most 24 hours after `from`.",
        schema: { type: "string", format: "date-time" },
      },
      { name: "cursor", in: "query", required: false, description: "The previous page's `next_cursor`.", schema: { type: "string" } },
    ],
    responses: {
      "200": pspResponse(
        "A page of the statement: `{ data: [ { idempotency_key, status, amount_cents, end_to_end_id, returns? } ], next_cursor }`.",
      ),
      "400": pspResponse("A missing or bad window: `{ code: invalid_request }`."),
      "5XX": pspResponse("Unavailable: ask again."),
    },
  }),
);

// The statement (CONTRACT §4), paged by `cursor`: the previous page's `next_cursor`.
sandboxRoutes.get("/provider/pix", sandboxStatementDoc, requireProviderToken(), async (c) => {
  const query = statementQuerySchema.safeParse(c.req.query());
  if (!query.success) return c.json({ code: "invalid_request" }, 400);
  if (await callObject(c, "sandbox.in_outage", () => sandbox(c).inOutage())) return c.json({ code: "unavailable" }, 503);
  const { fromMs, toMs, offset } = query.data;
  const items = JSON.parse(await callObject(c, "sandbox.statement", () => sandbox(c).statement(fromMs, toMs, "provider"))) as unknown[];
  const end = offset + statementPageItems;
  return c.json({ data: items.slice(offset, end), next_cursor: end < items.length ? String(end) : null });
});

const sandboxPaymentsDoc = documented(
  sandboxOperation({
    operationId: "sandboxPayments",
    summary: "Everything the sandbox holds",
    description: "For tests and demos: each payment with its call counts and whether money left.",
    security: [],
    responses: { "200": jsonResponse("The payments.", "SandboxPaymentList") },
  }),
);

sandboxRoutes.get("/provider/payments", sandboxPaymentsDoc, async (c) => {
  return c.json({ data: await callObject(c, "sandbox.payments", () => sandbox(c).payments()) });
});

const sandboxPaymentDoc = documented(
  sandboxOperation({
    operationId: "sandboxPayment",
    summary: "One payment the sandbox holds",
    description: "`made` tells whether money actually left.",
    security: [],
    parameters: [paymentKey],
    responses: {
      "200": jsonResponse("The payment.", "SandboxPayment"),
      "404": problemResponse("The sandbox never saw this key."),
    },
  }),
);

sandboxRoutes.get("/provider/payments/:idempotency_key", sandboxPaymentDoc, async (c) => {
  const view = await callObject(c, "sandbox.payment", () => sandbox(c).payment(c.req.param("idempotency_key")));
  if (view === null) return notFound(c, "The sandbox never saw this idempotency key.");
  return c.json(view);
});

/** When PROVIDER_TOKEN is set the sandbox checks it like a PSP would; unset, it accepts anyone. */
function requireProviderToken(): MiddlewareHandler<{ Bindings: Env }> {
  return async (c, next) => {
    const token = c.env.PROVIDER_TOKEN;
    if (token !== undefined && token !== "" && c.req.header("authorization") !== `Bearer ${token}`) {
      return c.json({ code: "unauthorized" }, 401);
    }
    await next();
  };
}
