// The sandbox provider's HTTP API under /sandbox (CONTRACT §4): the PSP API the HTTP adapter
// speaks (PUT/GET /provider/pix/:key, GET /provider/dict/:key) and the inspection endpoints. PSP
// answers are `{code}` JSON like a real PSP's; only "the sandbox is off" is a problem+json 404 of
// our own API.
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { configOf } from "../../config/isolate.ts";
import type { Config } from "../../config/parse.ts";
import { pixKeyTypes } from "../../lib/ids.ts";
import { brCodeLengthMax } from "../../pix/br-code.ts";
import { isPixKeyType, normalisePixKey } from "../../pix/key.ts";
import { callObject } from "../../web/object-call.ts";
import { notFound } from "../../web/problem.ts";
import { statementWindowMsMax } from "../statement.ts";
import type { SandboxAnswer } from "./answers.ts";
import { payeeOfSend, resolveSandboxBrCode } from "./br-codes.ts";
import { isUnownedKey, sandboxOwnerOf } from "./dict.ts";
import { sandboxEfiRoutes } from "./efi-routes.ts";
import { answerWith, sandbox } from "./reply.ts";

type SandboxEnv = { Bindings: Env; Variables: { config: Readonly<Config> } };

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

/** Longest outage one call can start: fault injection for tests and demos, bounded. */
export const outageDurationMsMax = 600_000;
export const outageBodySchema = z.strictObject({ duration_ms: z.number().int().min(0).max(outageDurationMsMax) });

// Fault injection (not part of a real PSP): the PSP API answers 503 until the outage ends.
sandboxRoutes.post("/provider/outage", async (c) => {
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

sandboxRoutes.put("/provider/pix/:key", requireProviderToken(), async (c) => {
  const key = idempotencyKeySchema.safeParse(c.req.param("key"));
  const body = sendBodySchema.safeParse(await c.req.json().catch(() => null));
  if (!key.success || !body.success) return c.json({ code: "invalid_request" }, 400);
  const amountCents = body.data.amount_cents;
  const payee = payeeOfSend(
    "br_code" in body.data
      ? { amountCents, brCode: body.data.br_code }
      : { amountCents, pixKey: body.data.pix_key, pixKeyType: body.data.pix_key_type },
  );
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

sandboxRoutes.get("/provider/pix/:key", requireProviderToken(), async (c) => {
  const key = idempotencyKeySchema.safeParse(c.req.param("key"));
  if (!key.success) return c.json({ code: "invalid_request" }, 400);
  return answerWith(
    c,
    await callObject<SandboxAnswer>(c, "sandbox.status", () => sandbox(c).status(key.data, c.var.config.sagaTimings.notFoundGraceMs)),
  );
});

// The directory (dict.ts): deterministic owners, keyed like transfers' keys.
sandboxRoutes.get("/provider/dict/:key", requireProviderToken(), (c) => {
  const type = c.req.query("type") ?? "";
  if (!isPixKeyType(type)) return c.json({ code: "invalid_request" }, 400);
  const key = normalisePixKey(type, c.req.param("key"));
  if (!key.ok) return c.json({ code: "invalid_request" }, 400);
  const query = { pixKey: key.key, pixKeyType: type };
  if (isUnownedKey(query)) return c.json({ code: "not_found" }, 404);
  return c.json(sandboxOwnerOf(query));
});

export const resolveBodySchema = z.object({ br_code: z.string().min(1).max(brCodeLengthMax) });

// A dynamic BR Code's payload, resolved from the code alone (br-codes.ts); nothing is stored.
sandboxRoutes.post("/provider/br-codes/resolve", requireProviderToken(), async (c) => {
  if (await callObject(c, "sandbox.in_outage", () => sandbox(c).inOutage())) return c.json({ code: "unavailable" }, 503);
  const body = resolveBodySchema.safeParse(await c.req.json().catch(() => null));
  if (!body.success) return c.json({ code: "invalid_request" }, 400);
  const resolved = resolveSandboxBrCode(body.data.br_code);
  if (!resolved.ok) return c.json({ code: resolved.code }, resolved.httpStatus);
  const { payment } = resolved;
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

// The statement (CONTRACT §4), paged by `cursor`: the previous page's `next_cursor`.
sandboxRoutes.get("/provider/pix", requireProviderToken(), async (c) => {
  const query = statementQuerySchema.safeParse(c.req.query());
  if (!query.success) return c.json({ code: "invalid_request" }, 400);
  if (await callObject(c, "sandbox.in_outage", () => sandbox(c).inOutage())) return c.json({ code: "unavailable" }, 503);
  const { fromMs, toMs, offset } = query.data;
  const items = JSON.parse(await callObject(c, "sandbox.statement", () => sandbox(c).statement(fromMs, toMs, "provider"))) as unknown[];
  const end = offset + statementPageItems;
  return c.json({ data: items.slice(offset, end), next_cursor: end < items.length ? String(end) : null });
});

sandboxRoutes.get("/provider/payments", async (c) => {
  return c.json({ data: await callObject(c, "sandbox.payments", () => sandbox(c).payments()) });
});

sandboxRoutes.get("/provider/payments/:key", async (c) => {
  const view = await callObject(c, "sandbox.payment", () => sandbox(c).payment(c.req.param("key")));
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
