// Efí's statement (CONTRACT §4b): `GET /v2/gn/pix/enviados?inicio=&fim=`, paged with
// `paginacao.paginaAtual` from 0 to `quantidadeDePaginas - 1`. Each item maps back to our words:
// `idEnvio` to the transfer id, `valor` to centavos, `devolucoes[]` to returns. An item we
// cannot read makes its page unreadable, like every malformed answer: the statement is incomplete.
import { z } from "zod";
import { inconclusiveStatus, type ProviderExchange, parseBody, returnsExceed, usableAnswer } from "../classify.ts";
import type { ProviderEvidence, StatementItem } from "../port.ts";
import type { PageRead } from "../statement.ts";
import { centsFromValor, transferIdOfIdEnvio } from "./money.ts";
import { efiReturns } from "./returns.ts";
import { efiStatusSchema, endToEndIdOf, endToEndIdSchema, returnSchema, valorSchema } from "./shapes.ts";

/** Items we ask Efí for per page (`paginacao.itensPorPagina`). */
export const efiStatementPageItems = 100;
/** More on one page than we asked for is not Efí talking. */
const efiPageItemsMax = 1000;

const itemSchema = z.object({
  idEnvio: z.string().regex(/^[a-zA-Z0-9]{1,35}$/),
  e2eId: endToEndIdSchema.nullish(),
  endToEndId: endToEndIdSchema.nullish(),
  valor: valorSchema,
  status: efiStatusSchema,
  devolucaoPresente: z.boolean().optional(),
  devolucoes: z.array(returnSchema).max(100).optional(),
});

const pageSchema = z.object({
  parametros: z.object({
    paginacao: z.object({
      paginaAtual: z.number().int().min(0),
      itensPorPagina: z.number().int().min(0).optional(),
      quantidadeDePaginas: z.number().int().min(0),
      quantidadeTotalDeItens: z.number().int().min(0).optional(),
    }),
  }),
  pix: z.array(itemSchema).max(efiPageItemsMax),
});

const statusOf = { EM_PROCESSAMENTO: "processing", REALIZADO: "confirmed", NAO_REALIZADO: "rejected" } as const;

export function statementPath(inicio: string, fim: string, page: number): string {
  const query = new URLSearchParams({
    inicio,
    fim,
    "paginacao.paginaAtual": String(page),
    "paginacao.itensPorPagina": String(efiStatementPageItems),
  });
  return `/v2/gn/pix/enviados?${query.toString()}`;
}

/** `page` is the page asked for; the next is asked while Efí says there are more. */
export function classifyEfiStatementPage(exchange: ProviderExchange, evidence: ProviderEvidence, page: number): PageRead<number> {
  const answer = usableAnswer(exchange);
  if (!answer.usable) return { ok: false, why: answer.why, evidence };
  if (answer.httpStatus !== 200) return { ok: false, ...inconclusiveStatus(answer.httpStatus), evidence };
  const body = parseBody(pageSchema, answer.body);
  if (body === null) return { ok: false, why: "malformed_body", evidence };
  // An answer about another page would skip or repeat payments.
  if (body.parametros.paginacao.paginaAtual !== page) return { ok: false, why: "wrong_page", evidence };
  const items: StatementItem[] = [];
  for (const pix of body.pix) {
    const item = statementItem(pix);
    if (item === null) return { ok: false, why: "malformed_body", evidence };
    items.push(item);
  }
  const next = page + 1 < body.parametros.paginacao.quantidadeDePaginas ? page + 1 : null;
  return { ok: true, items, next };
}

function statementItem(pix: z.infer<typeof itemSchema>): StatementItem | null {
  const amountCents = centsFromValor(pix.valor);
  const endToEndId = endToEndIdOf(pix);
  const returns = efiReturns(pix.devolucoes ?? []);
  if (amountCents === null || amountCents <= 0 || endToEndId === "conflict" || returns === null) return null;
  if (returnsExceed(returns, amountCents)) return null;
  return {
    idempotencyKey: transferIdOfIdEnvio(pix.idEnvio),
    status: statusOf[pix.status],
    amountCents,
    endToEndId,
    // Efí's list may only flag that money came back; the status answer lists it.
    returns: pix.status === "REALIZADO" ? returns : [],
    returnsUnlisted: pix.devolucaoPresente === true && pix.devolucoes === undefined,
  };
}
