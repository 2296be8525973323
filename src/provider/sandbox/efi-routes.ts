// The sandbox speaking Efí's Pix API under /sandbox/efi (CONTRACT §4b): token, send, status and
// statement, over the same payments and magic keys as /sandbox/provider, so `PROVIDER=efi
// EFI_BASE_URL=http://127.0.0.1:8787/sandbox/efi` runs the Efí adapter end to end.
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { configuredOrThrow } from "../../config/isolate.ts";
import { staticKeyOf } from "../../pix/static-key.ts";
import { centsFromValor, transferIdOfIdEnvio } from "../efi/money.ts";
import { statementWindowMsMax } from "../statement.ts";
import {
  efiChargeAnswer,
  efiCobProblem,
  efiDetalharAnswer,
  efiPayRefusal,
  efiRemovedChargePayAnswer,
  removedStatus,
} from "./efi-br-codes.ts";
import { answerWith, resolveLive, sandbox } from "./reply.ts";

const idEnvioSchema = z.string().regex(/^[a-zA-Z0-9]{1,35}$/);
const sendSchema = z.object({
  valor: z.string(),
  pagador: z.object({ chave: z.string().min(1).max(140), infoPagador: z.string().max(140).optional() }),
  favorecido: z.object({ chave: z.string().min(1).max(140) }),
});
/** A statement window: Efí's list is queried by `inicio` and `fim` (RFC 3339), paged from page 0. */
const listQuerySchema = z
  .object({
    inicio: z.iso.datetime({ offset: true }),
    fim: z.iso.datetime({ offset: true }),
    "paginacao.paginaAtual": z.coerce.number().int().min(0).max(100_000).default(0),
    "paginacao.itensPorPagina": z.coerce.number().int().min(1).max(1000).default(100),
  })
  .refine((q) => Date.parse(q.inicio) < Date.parse(q.fim) && Date.parse(q.fim) - Date.parse(q.inicio) <= statementWindowMsMax);

const tokenPrefix = "sandbox-efi-";
const tokenLifetimeSeconds = 3600;

export const sandboxEfiRoutes = new Hono<{ Bindings: Env }>();

sandboxEfiRoutes.post("/oauth/token", async (c) => {
  const body = await c.req.json().catch(() => null);
  const basic = c.req.header("authorization") ?? "";
  if (!basic.startsWith("Basic ") || (body as { grant_type?: unknown } | null)?.grant_type !== "client_credentials") {
    return c.json({ error: "invalid_request" }, 400);
  }
  // Like a PSP: when the credentials are configured, only they get a token.
  const { EFI_CLIENT_ID: id, EFI_CLIENT_SECRET: secret } = c.env;
  if (id && secret && basic !== `Basic ${btoa(`${id}:${secret}`)}`) return c.json({ error: "invalid_client" }, 401);
  return c.json({
    access_token: `${tokenPrefix}${crypto.randomUUID()}`,
    token_type: "Bearer",
    expires_in: tokenLifetimeSeconds,
    scope: "pix.send gn.pix.send.read",
  });
});

sandboxEfiRoutes.use("/v*", requireBearer(), async (c, next) => {
  if (await sandbox(c).inOutage()) return c.json({ nome: "erro_aplicacao", mensagem: "Serviço indisponível." }, 503);
  await next();
});

// `/v3/` today, `/v2/` in older docs: both.
sandboxEfiRoutes.put("/:version{v[23]}/gn/pix/:idEnvio", async (c) => {
  const idEnvio = idEnvioSchema.safeParse(c.req.param("idEnvio"));
  const body = sendSchema.safeParse(await c.req.json().catch(() => null));
  const amountCents = body.success ? centsFromValor(body.data.valor) : null;
  if (!idEnvio.success || !body.success || amountCents === null || amountCents < 1) {
    return c.json({ nome: "valor_invalido", mensagem: "Requisição inválida." }, 400);
  }
  const pixKey = body.data.favorecido.chave;
  const provider = sandbox(c);
  await provider.sendStarted();
  try {
    const answer = await provider.sendEfi({
      idempotencyKey: transferIdOfIdEnvio(idEnvio.data),
      amountCents,
      pixKey,
      pixKeyType: pixKey.includes("@") ? "email" : "evp",
      confirmMs: configuredOrThrow(c.env).sandboxConfirmMs,
      providerTimeoutMs: configuredOrThrow(c.env).providerTimeoutMs,
      notFoundGraceMs: configuredOrThrow(c.env).sagaTimings.notFoundGraceMs,
    });
    return await answerWith(c, answer);
  } finally {
    // Counting must never change the answer: a lost decrement only overstates concurrency.
    await provider.sendEnded().catch(() => undefined);
  }
});

const qrCodePaySchema = z.object({
  pagador: z.object({ chave: z.string().min(1).max(140), infoPagador: z.string().max(140).optional() }),
  pixCopiaECola: z.string().min(1).max(512),
});

// Paying a BR Code: the charge's own amount to the key its payload names (br-codes.ts).
sandboxEfiRoutes.put("/v2/gn/pix/:idEnvio/qrcode", async (c) => {
  const idEnvio = idEnvioSchema.safeParse(c.req.param("idEnvio"));
  const body = qrCodePaySchema.safeParse(await c.req.json().catch(() => null));
  if (!idEnvio.success || !body.success) return c.json({ nome: "qrcode_invalido", mensagem: "Requisição inválida." }, 400);
  const resolved = await resolveLive(c, body.data.pixCopiaECola);
  if (!resolved.ok) return answerWith(c, efiPayRefusal(resolved.code));
  const { payment } = resolved;
  if (payment.removed) return answerWith(c, efiRemovedChargePayAnswer);
  if (payment.amountCents === null) return c.json({ nome: "valor_invalido", mensagem: "A cobrança não tem valor." }, 400);
  const provider = sandbox(c);
  await provider.sendStarted();
  try {
    const config = configuredOrThrow(c.env);
    const answer = await provider.sendEfi({
      idempotencyKey: transferIdOfIdEnvio(idEnvio.data),
      amountCents: payment.amountCents,
      pixKey: payment.pixKey,
      pixKeyType: payment.pixKeyType,
      confirmMs: config.sandboxConfirmMs,
      providerTimeoutMs: config.providerTimeoutMs,
      notFoundGraceMs: config.sagaTimings.notFoundGraceMs,
    });
    return await answerWith(c, answer);
  } finally {
    await provider.sendEnded().catch(() => undefined);
  }
});

// Decoding a BR Code: a dynamic code's charge as it is now (its receiver's changes included).
sandboxEfiRoutes.post("/v2/gn/qrcodes/detalhar", async (c) => {
  const body = z.object({ pixCopiaECola: z.string().min(1).max(512) }).safeParse(await c.req.json().catch(() => null));
  if (!body.success) return answerWith(c, efiDetalharAnswer({ ok: false, httpStatus: 400, code: "invalid_br_code" }));
  return answerWith(c, efiDetalharAnswer(await resolveLive(c, body.data.pixCopiaECola)));
});

/** `PATCH /v2/cob/:txid` as the Pix API shapes it; only what a receiver changes before a payment is read. */
const cobPatchSchema = z.object({
  valor: z.object({ original: z.string() }).optional(),
  chave: z.string().min(1).max(77).optional(),
  status: z.literal(removedStatus).optional(),
});

// The receiver's side of a dynamic charge (the sandbox's test seam in Efí's words): raise its
// amount, move it to another key, or remove it, while it is live.
sandboxEfiRoutes.patch("/v2/cob/:txid", async (c) => {
  const txid = c.req.param("txid");
  const body = cobPatchSchema.safeParse(await c.req.json().catch(() => null));
  const amountCents = body.success && body.data.valor !== undefined ? centsFromValor(body.data.valor.original) : undefined;
  const key = body.success && body.data.chave !== undefined ? staticKeyOf(body.data.chave) : undefined;
  if (!/^[A-Za-z0-9]{1,35}$/.test(txid) || !body.success || amountCents === null || (amountCents ?? 1) < 1 || key?.ok === false) {
    return answerWith(c, efiCobProblem);
  }
  const change = {
    ...(amountCents === undefined ? {} : { amountCents }),
    ...(key?.ok ? { key: { pixKey: key.pixKey, pixKeyType: key.pixKeyType } } : {}),
    ...(body.data.status === undefined ? {} : { removed: true as const }),
  };
  return answerWith(c, efiChargeAnswer(await sandbox(c).changeCharge(txid, change)));
});

sandboxEfiRoutes.get("/v2/gn/pix/enviados/id-envio/:idEnvio", async (c) => {
  const idEnvio = idEnvioSchema.safeParse(c.req.param("idEnvio"));
  if (!idEnvio.success) return c.json({ nome: "id_envio_invalido", mensagem: "idEnvio inválido." }, 400);
  return answerWith(c, await sandbox(c).statusEfi(transferIdOfIdEnvio(idEnvio.data)));
});

sandboxEfiRoutes.get("/v2/gn/pix/enviados", async (c) => {
  const query = listQuerySchema.safeParse(c.req.query());
  if (!query.success) return c.json({ nome: "parametros_invalidos", mensagem: "inicio e fim são obrigatórios." }, 400);
  const { inicio, fim, "paginacao.paginaAtual": page, "paginacao.itensPorPagina": perPage } = query.data;
  const all = JSON.parse(await sandbox(c).statement(Date.parse(inicio), Date.parse(fim), "efi")) as unknown[];
  return c.json({
    parametros: {
      inicio,
      fim,
      paginacao: {
        paginaAtual: page,
        itensPorPagina: perPage,
        quantidadeDePaginas: Math.ceil(all.length / perPage),
        quantidadeTotalDeItens: all.length,
      },
    },
    pix: all.slice(page * perPage, (page + 1) * perPage),
  });
});

function requireBearer(): MiddlewareHandler<{ Bindings: Env }> {
  return async (c, next) => {
    if (!c.req.header("authorization")?.startsWith(`Bearer ${tokenPrefix}`)) {
      return c.json({ nome: "nao_autorizado", mensagem: "Token ausente ou inválido." }, 401);
    }
    await next();
  };
}
