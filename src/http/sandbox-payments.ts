// The sandbox's PSP payment API (CONTRACT §4), the one the saga's HTTP adapter speaks: send a Pix
// (idempotent PUT), its status, the directory lookup and the paged statement. Answers are `{code}`
// JSON like a real PSP's. Mounted by sandbox.ts, behind its outage and sandbox-off guards.
import { Hono } from "hono";
import { z } from "zod";
import { pixKeyTypes } from "../lib/ids.ts";
import { brCodeLengthMax } from "../pix/br-code.ts";
import { isPixKeyType, normalisePixKey } from "../pix/key.ts";
import type { SandboxAnswer } from "../provider/sandbox/answers.ts";
import { payeeOfCode } from "../provider/sandbox/br-codes.ts";
import { isUnownedKey, sandboxOwnerOf } from "../provider/sandbox/dict.ts";
import { answerWith, resolveLive, sandbox } from "../provider/sandbox/reply.ts";
import { statementWindowMsMax } from "../provider/statement.ts";
import { callObject } from "../web/object-call.ts";
import { jsonRequestBody, pathParameter } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { pspResponse, sandboxOperation } from "./openapi/sandbox.ts";
import type { Parameter } from "./openapi/types.ts";
import type { SandboxEnv } from "./sandbox-env.ts";
import { providerSecurity, requireProviderToken } from "./sandbox-psp-token.ts";

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

export const sandboxPaymentRoutes = new Hono<SandboxEnv>();

export const paymentKey = pathParameter("idempotency_key", "The payment's idempotency key (our transfer id).", { type: "string" });

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

sandboxPaymentRoutes.put("/provider/pix/:idempotency_key", sandboxSendDoc, requireProviderToken(), async (c) => {
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

sandboxPaymentRoutes.get("/provider/pix/:idempotency_key", sandboxStatusDoc, requireProviderToken(), async (c) => {
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
sandboxPaymentRoutes.get("/provider/dict/:key", sandboxDictDoc, requireProviderToken(), (c) => {
  const type = c.req.query("type") ?? "";
  if (!isPixKeyType(type)) return c.json({ code: "invalid_request" }, 400);
  const key = normalisePixKey(type, c.req.param("key"));
  if (!key.ok) return c.json({ code: "invalid_request" }, 400);
  const query = { pixKey: key.key, pixKeyType: type };
  if (isUnownedKey(query)) return c.json({ code: "not_found" }, 404);
  return c.json(sandboxOwnerOf(query));
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
sandboxPaymentRoutes.get("/provider/pix", sandboxStatementDoc, requireProviderToken(), async (c) => {
  const query = statementQuerySchema.safeParse(c.req.query());
  if (!query.success) return c.json({ code: "invalid_request" }, 400);
  if (await callObject(c, "sandbox.in_outage", () => sandbox(c).inOutage())) return c.json({ code: "unavailable" }, 503);
  const { fromMs, toMs, offset } = query.data;
  const items = JSON.parse(await callObject(c, "sandbox.statement", () => sandbox(c).statement(fromMs, toMs, "provider"))) as unknown[];
  const end = offset + statementPageItems;
  return c.json({ data: items.slice(offset, end), next_cursor: end < items.length ? String(end) : null });
});
