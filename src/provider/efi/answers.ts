// The ONE place where Efí's answers become outcomes (CONTRACT §4b), leaning the same way as the
// generic API's (../classify.ts): when an answer does not prove what happened, it is unknown.
// Efí-specific: `id_envio_duplicado` (under any status) and 409 mean the Pix exists; only Efí's
// own not-found body is not found, settled after the grace window by sending again;
// `chave_invalida` is our key.
import {
  type Contradiction,
  contradiction,
  inconclusiveStatus,
  isCredentialsRefusal,
  namesAnotherKey,
  type ProviderExchange,
  parseBody,
  readStatusAnswer,
  returnsExceed,
  type StatusReading,
  usableAnswer,
} from "../classify.ts";
import type { PixOrder, ProviderEvidence, SendOutcome, StatusOutcome } from "../port.ts";
import { centsFromValor, idEnvioOf } from "./money.ts";
import { efiReturns } from "./returns.ts";
import { endToEndIdOf, errorBodySchema, notFoundBodySchema, sendAcceptedSchema, statusBodySchema } from "./shapes.ts";

/**
 * 4xx that say nothing about the order: 408 (gave up waiting), 425/429 (not now), 404 on a send
 * (a wrong URL, not a refusal). 409 is handled on its own: the id was already used.
 */
const inconclusiveClientStatuses: ReadonlySet<number> = new Set([404, 408, 425, 429]);

/** Efí's word for "this idEnvio was already used": the Pix exists. */
const duplicateIdEnvio = "id_envio_duplicado";

/** `chave_invalida` refuses our own payer key (EFI_PAYER_KEY): every send will fail until fixed. */
const payerKeyRefusal = "chave_invalida";

/** Only Efí's own not-found body is not found; after the grace window the saga sends again. */
const efiStatusReading = {
  notFoundBody: notFoundBodySchema,
  foreignNotFound: "http_404_not_efi",
  afterGrace: "resend",
  body: statusBodySchema,
} satisfies StatusReading<unknown>;

/** An answer about another idEnvio is about another order; another valor or chave, about money that left as something else. */
function contradicts(order: PixOrder, idEnvio: string | undefined, valor: string, chave?: string): Contradiction | null {
  if (idEnvio !== undefined && idEnvio.toLowerCase() !== idEnvioOf(order.idempotencyKey)) return "another_order";
  if (centsFromValor(valor) !== order.amountCents) return "order_mismatch";
  return namesAnotherKey(chave, order) ? "order_mismatch" : null;
}

export function classifyEfiSend(order: PixOrder, exchange: ProviderExchange, evidence: ProviderEvidence): SendOutcome {
  const answer = usableAnswer(exchange);
  if (!answer.usable) return { kind: "unknown", why: answer.why, evidence };
  const { httpStatus, body } = answer;
  if (httpStatus === 200 || httpStatus === 201) {
    // A 2xx we cannot read may still mean the Pix was made: unknown, never success.
    const accepted = parseBody(sendAcceptedSchema, body);
    if (accepted === null) return { kind: "unknown", why: "malformed_body", evidence };
    const endToEndId = endToEndIdOf(accepted);
    const contradicted = contradiction(contradicts(order, accepted.idEnvio, accepted.valor), evidence);
    if (contradicted !== null) return contradicted;
    if (endToEndId === "conflict") return { kind: "unknown", why: "contradicts_order", evidence };
    // Whatever status the send carries, the status check settles it: a send only says "held".
    return { kind: "accepted", status: "processing", endToEndId, evidence };
  }
  const refusal = parseBody(errorBodySchema, body);
  // The id was already used: the Pix exists (made by an earlier send), never a failure, under
  // whatever status Efí sends it (documented as 409; a 400 or 422 saying so is no refusal).
  if (httpStatus === 409 || refusal?.nome === duplicateIdEnvio) return { kind: "unknown", why: "already_exists", evidence };
  if (httpStatus >= 400 && httpStatus < 500 && !inconclusiveClientStatuses.has(httpStatus) && !isCredentialsRefusal(httpStatus)) {
    // A refusal counts only in Efí's words: an HTML 400 from something in between proves nothing.
    if (refusal === null) return { kind: "unknown", why: `http_${httpStatus}_not_efi`, evidence };
    if (refusal.nome === payerKeyRefusal) return { kind: "rejected", code: refusal.nome, evidence, alert: "payer_key_invalid" };
    return { kind: "rejected", code: refusal.nome, evidence };
  }
  // 5xx (`erro_aplicacao`) may have made the Pix before failing; 3xx and other 2xx are not Efí;
  // 401/403 say nothing about the order either, and raise the credentials alert.
  return { kind: "unknown", ...inconclusiveStatus(httpStatus), evidence };
}

export function classifyEfiStatus(order: PixOrder, exchange: ProviderExchange, evidence: ProviderEvidence): StatusOutcome {
  const read = readStatusAnswer(exchange, evidence, efiStatusReading);
  if ("outcome" in read) return read.outcome;
  const status = read.body;
  const endToEndId = endToEndIdOf(status);
  const idEnvio = status.idEnvio ?? status.gnExtras?.idEnvio;
  const contradicted = contradiction(contradicts(order, idEnvio, status.valor, status.chave ?? status.favorecido?.chave), evidence);
  if (contradicted !== null) return contradicted;
  if (endToEndId === "conflict") return { kind: "unknown", why: "contradicts_order", evidence };
  switch (status.status) {
    case "REALIZADO": {
      const returns = efiReturns(status.devolucoes ?? []);
      if (returns === null) return { kind: "unknown", why: "malformed_body", evidence };
      if (returnsExceed(returns, order.amountCents)) return { kind: "unknown", why: "returns_exceed_amount", evidence };
      return { kind: "confirmed", endToEndId, returns, evidence };
    }
    case "NAO_REALIZADO":
      return { kind: "rejected", code: status.gnExtras?.erro?.codigo ?? "nao_realizado", evidence };
    case "EM_PROCESSAMENTO":
      return { kind: "processing", evidence };
  }
}
