// The sandbox's answers in Efí's words (CONTRACT §4b), translated from the generic sandbox's, so
// both dialects share one store and one set of magic keys. Pure. Where Efí differs from the
// generic API: a repeated idEnvio is `409 id_envio_duplicado`, not the same answer again; and
// a repeat of a send that made nothing (timeout-lost) is refused for good (`422
// pagamento_negado`), so a saga settling a not-found by sending again ends `not_sent`.
import { idEnvioOf, valorFromCents } from "../efi/money.ts";
import type { SandboxAnswer } from "./answers.ts";
import { behaviourFor, isKnownToProvider } from "./behaviours.ts";
import type { PaymentRow } from "./store.ts";

export const efiNotFoundType = "https://pix.bcb.gov.br/api/v2/error/PixEnviadoNaoEncontrado";

const efiStatusOf = { processing: "EM_PROCESSAMENTO", confirmed: "REALIZADO", rejected: "NAO_REALIZADO" } as const;

function efiError(httpStatus: number, nome: string, mensagem: string, answerDelayMs = 0): SandboxAnswer {
  return { httpStatus, body: { nome, mensagem }, answerDelayMs };
}

/** The answer to `PUT /v3/gn/pix/:idEnvio`, from the generic answer and the stored row. */
export function efiSendAnswer(generic: SandboxAnswer, row: PaymentRow | null, firstCall: boolean, nowMs: number): SandboxAnswer {
  if (generic.httpStatus === 409) return efiError(409, "id_envio_duplicado", "Este idEnvio já foi utilizado com outro pagamento.");
  if (row !== null && !firstCall) {
    // Nothing was ever made under this id (or, late-confirm@, nothing shows yet): Efí refuses
    // the repeat outright, so the saga releases once its next status read finds nothing either,
    // and the Pix that leaves after that read is paid after release.
    const behaviour = behaviourFor(row.pix_key);
    if (!isKnownToProvider(behaviour) || (behaviour.hiddenPastGrace && nowMs < row.final_at_ms)) {
      return efiError(422, "pagamento_negado", "Pagamento negado.");
    }
    if (generic.httpStatus === 200) return efiError(409, "id_envio_duplicado", "Este idEnvio já foi utilizado.");
  }
  switch (generic.httpStatus) {
    case 200:
    case 201:
      if (row === null) return efiError(500, "erro_aplicacao", "Erro interno.");
      return {
        httpStatus: 201,
        body: {
          idEnvio: idEnvioOf(row.idempotency_key),
          e2eId: row.end_to_end_id,
          valor: valorFromCents(row.amount_cents),
          horario: { solicitacao: new Date(row.accepted_at_ms).toISOString() },
          status: "EM_PROCESSAMENTO",
        },
        answerDelayMs: generic.answerDelayMs,
      };
    case 422:
      return efiError(422, "pagamento_negado", "Pagamento negado.");
    case 500:
      return efiError(500, "erro_aplicacao", "Erro interno.");
    default:
      // 504 of a lost send, 503 of an outage: not Efí's words, as a gateway would answer.
      return { httpStatus: generic.httpStatus, body: { error: "gateway" }, answerDelayMs: generic.answerDelayMs };
  }
}

/** The answer to `GET /v2/gn/pix/enviados/id-envio/:idEnvio`. */
export function efiStatusAnswer(generic: SandboxAnswer, row: PaymentRow | null): SandboxAnswer {
  if (generic.httpStatus === 404 || row === null) {
    return {
      httpStatus: 404,
      body: { type: efiNotFoundType, title: "Não Encontrado", status: 404, detail: "Pix enviado não encontrado para o idEnvio informado." },
      answerDelayMs: 0,
    };
  }
  if (generic.httpStatus !== 200) return efiError(generic.httpStatus, "erro_aplicacao", "Serviço indisponível.");
  const status = String(generic.body.status) as keyof typeof efiStatusOf;
  const idEnvio = idEnvioOf(row.idempotency_key);
  const code = generic.body.code;
  return {
    httpStatus: 200,
    body: {
      idEnvio,
      endToEndId: row.end_to_end_id,
      valor: valorFromCents(row.amount_cents),
      chave: row.pix_key,
      status: efiStatusOf[status],
      horario: { solicitacao: new Date(row.accepted_at_ms).toISOString() },
      gnExtras: {
        idEnvio,
        ...(status === "rejected" && typeof code === "string" ? { erro: { codigo: code, origem: "sandbox", motivo: code } } : {}),
      },
      ...(status === "confirmed" ? { devolucoes: efiDevolucoes(generic.body.returns) } : {}),
    },
    answerDelayMs: 0,
  };
}

/** One item of an Efí webhook (`{"pix": [item]}`) for a row: what Efí would claim. */
export function efiWebhookItem(row: PaymentRow, claimed: "confirmed" | "rejected", nowMs: number): Record<string, unknown> {
  return {
    endToEndId: row.end_to_end_id,
    chave: row.pix_key,
    tipo: "SOLICITACAO",
    status: efiStatusOf[claimed],
    valor: valorFromCents(row.amount_cents),
    horario: new Date(nowMs).toISOString(),
    gnExtras: { idEnvio: idEnvioOf(row.idempotency_key) },
  };
}

/**
 * One payment of Efí's statement, from its status answer's body: the same fields, its
 * devolucoes included, and `devolucaoPresente` as Efí's list flags them.
 */
export function efiListItem(statusBody: Record<string, unknown>): Record<string, unknown> {
  const { gnExtras: _extras, ...item } = statusBody;
  const devolucoes = Array.isArray(statusBody.devolucoes) ? statusBody.devolucoes : [];
  return { ...item, devolucaoPresente: devolucoes.length > 0 };
}

const naturezaOf: Readonly<Record<string, string>> = {
  returned_by_recipient: "ORIGINAL",
  fraud: "MED_FRAUDE",
  operational_failure: "MED_OPERACIONAL",
  other: "RETIRADA",
};

/** The generic answer's returns as Efí's `devolucoes[]`: each one came back (DEVOLVIDO). */
function efiDevolucoes(returns: unknown): Record<string, unknown>[] {
  if (!Array.isArray(returns)) return [];
  return returns.map((r: { id: string; amount_cents: number; reason: string; at: string }) => ({
    id: r.id.slice(-12),
    rtrId: r.id,
    valor: valorFromCents(r.amount_cents),
    natureza: naturezaOf[r.reason] ?? "RETIRADA",
    horario: { solicitacao: r.at, liquidacao: r.at },
    status: "DEVOLVIDO",
  }));
}
