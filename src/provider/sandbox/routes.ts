// The sandbox provider's HTTP API under /sandbox (CONTRACT §4): the PSP API the HTTP adapter
// speaks (PUT/GET /provider/pix/:key) and the inspection endpoints. PSP answers are `{code}`
// JSON like a real PSP's; only "the sandbox is off" is a problem+json 404 of our own API.
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { configOf } from "../../config/isolate.ts";
import type { Config } from "../../config/parse.ts";
import { callObject } from "../../http/object-call.ts";
import { problem } from "../../http/problem.ts";
import { statementWindowMsMax } from "../statement.ts";
import type { SandboxAnswer } from "./answers.ts";
import { sandboxEfiRoutes } from "./efi-routes.ts";
import { sandboxInstanceName } from "./sandbox-object.ts";

type SandboxEnv = { Bindings: Env; Variables: { config: Readonly<Config> } };
type SandboxContext = Context<SandboxEnv>;

/** Same bound as the client API's Idempotency-Key: 1 to 255 printable ASCII characters. */
const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,255}$/);

export const sendBodySchema = z.object({
  amount_cents: z.number().int().min(1).max(1_000_000_000_000),
  pix_key: z.string().min(1).max(140),
  pix_key_type: z.enum(["cpf", "cnpj", "email", "phone", "evp"]),
  description: z.string().max(140).nullable().optional(),
});

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

/** A slow answer never holds a request longer than this, whatever PROVIDER_TIMEOUT_MS says. */
const answerDelayMsMax = 130_000;

export const sandboxRoutes = new Hono<SandboxEnv>();

// Off means absent: production must not even reveal that the sandbox exists.
sandboxRoutes.use("*", async (c, next) => {
  const config = configOf(c.env);
  if (!config.ok || !config.config.sandboxEnabled) {
    return problem(c, 404, { type: "not-found", detail: `Nothing at ${c.req.method} ${c.req.path}.` });
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

sandboxRoutes.use("/provider/pix/*", async (c, next) => {
  if (await callObject(c, "sandbox.in_outage", () => sandbox(c).inOutage())) return c.json({ code: "unavailable" }, 503);
  await next();
});

sandboxRoutes.put("/provider/pix/:key", requireProviderToken(), async (c) => {
  const key = idempotencyKeySchema.safeParse(c.req.param("key"));
  const body = sendBodySchema.safeParse(await c.req.json().catch(() => null));
  if (!key.success || !body.success) return c.json({ code: "invalid_request" }, 400);
  const provider = sandbox(c);
  await callObject(c, "sandbox.send", () => provider.sendStarted());
  try {
    const answer = await callObject<SandboxAnswer>(c, "sandbox.send", () =>
      provider.send({
        idempotencyKey: key.data,
        amountCents: body.data.amount_cents,
        pixKey: body.data.pix_key,
        pixKeyType: body.data.pix_key_type,
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
  return answerWith(c, await callObject<SandboxAnswer>(c, "sandbox.status", () => sandbox(c).status(key.data)));
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
  if (view === null) return problem(c, 404, { type: "not-found", detail: "The sandbox never saw this idempotency key." });
  return c.json(view);
});

function sandbox(c: SandboxContext) {
  return c.env.SANDBOX.getByName(sandboxInstanceName);
}

async function answerWith(c: SandboxContext, answer: SandboxAnswer): Promise<Response> {
  // The wait happens here, not in the Durable Object, so a slow answer never holds the sandbox.
  const delayMs = Math.min(answer.answerDelayMs, answerDelayMsMax);
  if (delayMs > 0) await scheduler.wait(delayMs);
  return c.json(answer.body, answer.httpStatus as ContentfulStatusCode);
}

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
