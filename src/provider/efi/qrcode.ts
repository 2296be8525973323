// Efí's BR Code routes (CONTRACT §4b): `POST /v2/gn/qrcodes/detalhar` decodes a code (for a
// dynamic one, the charge its URL serves) and `PUT /v2/gn/pix/:idEnvio/qrcode` pays it. Their
// bodies and the judgement of detalhar's answers; the pay answers are judged like any send.
import { z } from "zod";
import { type BrCodeResolution, resolvedCitySchema, resolvedKeyOf, resolvedNameSchema, resolvedTxidSchema } from "../br-code-resolution.ts";
import { isCredentialsRefusal, type ProviderExchange, parseBody, usableAnswer } from "../classify.ts";
import type { PixOrder, ProviderEvidence } from "../port.ts";
import { centsFromValor, valorPattern } from "./money.ts";
import { infoPagadorCharsMax } from "./shapes.ts";

export interface EfiQrCodePayBody {
  pagador: { chave: string; infoPagador?: string };
  pixCopiaECola: string;
}

export function qrCodePayBody(order: PixOrder & { brCode: string }, payerKey: string): EfiQrCodePayBody {
  const pagador: EfiQrCodePayBody["pagador"] = { chave: payerKey };
  if (order.description !== null && order.description !== "") pagador.infoPagador = order.description.slice(0, infoPagadorCharsMax);
  return { pagador, pixCopiaECola: order.brCode };
}

const valorSchema = z.string().regex(valorPattern);

/** Detalhar's answer: a charge (`cob`/`cobv`) as Efí's SDK documents it; loose beyond what we read. */
export const detalharBodySchema = z.object({
  tipoCob: z.string().max(16).optional(),
  txid: resolvedTxidSchema.optional(),
  status: z.string().max(64).optional(),
  recebedor: z.object({ nome: resolvedNameSchema.optional(), cidade: resolvedCitySchema.optional() }).optional(),
  valor: z.object({ original: valorSchema.optional(), final: valorSchema.optional() }).optional(),
  chave: z.string().min(1).max(100),
});

/** A refusal in Efí's words: `{ nome }`, or a problem document whose `type` names it (`.../QrCodeInvalido`). */
const refusalSchema = z.union([
  z.object({ nome: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/) }).transform((b) => b.nome),
  z.object({ type: z.string().regex(/\/[A-Za-z0-9_.-]{1,64}$/) }).transform((b) => b.type.slice(b.type.lastIndexOf("/") + 1)),
]);

/** A charge that can still be paid; any other status (CONCLUIDA, REMOVIDA_...) is refused. */
const payableStatus = "ATIVA";

/**
 * 429 is Efí's empty bucket (`BaldeFichasVazio`): not now, no verdict. 408 and 425 likewise. A
 * 404 refuses only in Efí's words (a charge it no longer has, `.../CobNaoEncontrado`): a
 * gateway's page or a wrong base URL says nothing, like every other 4xx without them.
 */
const inconclusiveStatuses: ReadonlySet<number> = new Set([408, 425, 429]);

export function classifyEfiDetalhar(exchange: ProviderExchange, evidence: ProviderEvidence): BrCodeResolution {
  const answer = usableAnswer(exchange);
  if (!answer.usable) return { kind: "unknown", why: answer.why, evidence };
  const { httpStatus, body } = answer;
  if (httpStatus === 200) {
    const charge = parseBody(detalharBodySchema, body);
    if (charge === null) return { kind: "unknown", why: "malformed_body", evidence };
    if (charge.status !== undefined && charge.status !== payableStatus) {
      return { kind: "refused", code: `cobranca_${charge.status.toLowerCase()}`.slice(0, 64), evidence };
    }
    const key = resolvedKeyOf(charge.chave, null);
    if (key === null) return { kind: "unknown", why: "invalid_key", evidence };
    const valor = charge.valor?.final ?? charge.valor?.original;
    const amountCents = valor === undefined ? null : centsFromValor(valor);
    return {
      kind: "resolved",
      payment: {
        ...key,
        // Zero is "the payer chooses", as a code without field 54.
        amountCents: amountCents === null || amountCents === 0 ? null : amountCents,
        merchantName: charge.recebedor?.nome ?? null,
        merchantCity: charge.recebedor?.cidade ?? null,
        txid: charge.txid ?? null,
      },
      evidence,
    };
  }
  if (httpStatus >= 400 && httpStatus < 500 && !inconclusiveStatuses.has(httpStatus) && !isCredentialsRefusal(httpStatus)) {
    const code = parseBody(refusalSchema, body);
    if (code !== null) return { kind: "refused", code, evidence };
    return { kind: "unknown", why: `http_${httpStatus}_not_efi`, evidence };
  }
  return { kind: "unknown", why: `http_${httpStatus}`, evidence };
}
