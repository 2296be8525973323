// Efí's Pix API shapes (CONTRACT §4b): the bodies we send and zod schemas for every answer we
// read. Loose where Efí may add fields, strict on the ones a decision rests on.
import { z } from "zod";
import type { PixOrder } from "../port.ts";
import { valorFromCents, valorPattern } from "./money.ts";

/** BCB end-to-end id: `E` + ISPB (8) + yyyyMMddHHmm (12) + 11 alphanumerics = 32 characters. */
export const endToEndIdSchema = z.string().regex(/^E[0-9A-Za-z]{31}$/);
/** Efí's codes end up in `failure_code` shown to clients: short and plain, or not trusted. */
const efiCodeSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/);
export const valorSchema = z.string().regex(valorPattern);
/** Efí's `infoPagador` limit. */
export const infoPagadorCharsMax = 140;

export interface EfiSendBody {
  valor: string;
  pagador: { chave: string; infoPagador?: string };
  favorecido: { chave: string };
}

export function sendBody(order: PixOrder, payerKey: string): EfiSendBody {
  const pagador: EfiSendBody["pagador"] = { chave: payerKey };
  if (order.description !== null && order.description !== "") pagador.infoPagador = order.description.slice(0, infoPagadorCharsMax);
  return { valor: valorFromCents(order.amountCents), pagador, favorecido: { chave: order.pixKey } };
}

export const efiStatusSchema = z.enum(["EM_PROCESSAMENTO", "REALIZADO", "NAO_REALIZADO"]);

/** `201` to a send. Older answers name the end-to-end id `e2eId`, newer ones `endToEndId`. */
export const sendAcceptedSchema = z.object({
  idEnvio: z.string(),
  e2eId: endToEndIdSchema.nullish(),
  endToEndId: endToEndIdSchema.nullish(),
  valor: valorSchema,
  status: efiStatusSchema,
});

/** Efí's error body: `{ nome, mensagem }`. */
export const errorBodySchema = z.object({ nome: efiCodeSchema, mensagem: z.string().max(1024).optional() });

export const returnSchema = z.object({
  id: z.string().max(64).optional(),
  rtrId: z.string().max(64).optional(),
  valor: valorSchema,
  horario: z.unknown().optional(),
  status: z.string().max(64).optional(),
  /** Why it came back: ORIGINAL, MED_FRAUDE, MED_OPERACIONAL, RETIRADA (or a Pix return code). */
  natureza: z.string().max(64).optional(),
  motivo: z.string().max(140).optional(),
});

/** `200` to `GET /v2/gn/pix/enviados/id-envio/:idEnvio`. */
export const statusBodySchema = z.object({
  idEnvio: z.string().optional(),
  e2eId: endToEndIdSchema.nullish(),
  endToEndId: endToEndIdSchema.nullish(),
  valor: valorSchema,
  status: efiStatusSchema,
  /** Whom it paid: the key at the top level (as the sandbox answers) or under `favorecido`. */
  chave: z.string().max(140).optional(),
  favorecido: z.object({ chave: z.string().max(140).optional() }).optional(),
  gnExtras: z
    .object({
      idEnvio: z.string().optional(),
      erro: z.object({ codigo: efiCodeSchema.optional(), origem: z.string().optional(), motivo: z.string().optional() }).optional(),
    })
    .optional(),
  devolucoes: z.array(returnSchema).max(100).optional(),
});

/** Efí's own not-found: a problem document whose `type` ends in `PixEnviadoNaoEncontrado`. */
export const notFoundBodySchema = z.object({ type: z.string().regex(/PixEnviadoNaoEncontrado$/) });

/** `POST /oauth/token` answer. */
export const tokenBodySchema = z.object({
  access_token: z.string().min(1).max(8192),
  token_type: z.string().regex(/^bearer$/i),
  expires_in: z.number().int().min(1).max(86_400),
  scope: z.string().max(1024).optional(),
});

/**
 * Both names given and different: the answer contradicts itself. A null one is an absent one: a
 * Pix refused before it left has no end-to-end id, and Efí lists it so.
 */
export function endToEndIdOf(body: {
  e2eId?: string | null | undefined;
  endToEndId?: string | null | undefined;
}): string | null | "conflict" {
  const e2eId = body.e2eId ?? null;
  const endToEndId = body.endToEndId ?? null;
  if (e2eId !== null && endToEndId !== null && e2eId !== endToEndId) return "conflict";
  return endToEndId ?? e2eId;
}
