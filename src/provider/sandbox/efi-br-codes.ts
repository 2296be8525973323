// The sandbox's BR Code answers in Efí's words (CONTRACT §4b): `POST /v2/gn/qrcodes/detalhar`
// as Efí's SDK documents it, over the same deterministic resolution as the generic dialect
// (br-codes.ts). Efí's errors here are problem documents (`type`, `title`, `status`, `detail`);
// a payload that cannot be fetched now is Efí's empty bucket, `429 BaldeFichasVazio`. A charge
// its receiver removed (charges.ts) is shown with its status, and refused when paid. Pure.
import { valorFromCents } from "../efi/money.ts";
import type { SandboxAnswer } from "./answers.ts";
import type { SandboxResolution } from "./br-codes.ts";
import type { SandboxCharge } from "./charges.ts";

const errorTypeBase = "https://pix.bcb.gov.br/api/v2/error/";

function efiProblem(httpStatus: number, name: string, title: string, detail: string): SandboxAnswer {
  return { httpStatus, body: { type: `${errorTypeBase}${name}`, title, status: httpStatus, detail }, answerDelayMs: 0 };
}

export function efiDetalharAnswer(resolution: SandboxResolution): SandboxAnswer {
  if (!resolution.ok) {
    switch (resolution.code) {
      case "invalid_br_code":
      case "not_dynamic":
        return efiProblem(400, "QrCodeInvalido", "QR Code inválido", "O QR Code informado não é um QR Code Pix dinâmico válido.");
      case "expired":
        return efiProblem(400, "QrCodeExpirado", "QR Code expirado", "A cobrança deste QR Code expirou ou já foi paga.");
      case "unavailable":
        return efiProblem(429, "BaldeFichasVazio", "Limite de requisições", "O balde de fichas está vazio; tente mais tarde.");
    }
  }
  const { payment } = resolution;
  return {
    httpStatus: 200,
    body: {
      tipoCob: "cob",
      txid: payment.txid,
      revisao: payment.revision,
      calendario: { criacao: "2026-01-01T00:00:00.000Z", apresentacao: new Date().toISOString(), expiracao: 86_400 },
      status: payment.removed ? removedStatus : "ATIVA",
      recebedor: { nome: payment.merchantName, cidade: payment.merchantCity },
      valor: payment.amountCents === null ? { original: "0.00" } : { original: valorFromCents(payment.amountCents) },
      chave: payment.pixKey,
    },
    answerDelayMs: 0,
  };
}

/** Efí's (and the Pix API's) status of a charge its receiver removed. */
export const removedStatus = "REMOVIDA_PELO_USUARIO_RECEBEDOR";

/** Paying a removed charge: a problem document, as Efí answers it (`.../QrcodeOperacaoInvalida`). */
export const efiRemovedChargePayAnswer: SandboxAnswer = efiProblem(
  400,
  "QrcodeOperacaoInvalida",
  "Operação inválida",
  "A cobrança deste QR Code não está ativa e não pode ser paga.",
);

/** A `PATCH /v2/cob/:txid` the sandbox cannot read (a bad txid, valor or chave). */
export const efiCobProblem: SandboxAnswer = efiProblem(
  400,
  "CobOperacaoInvalida",
  "Cobrança inválida",
  "A requisição não respeita o schema.",
);

/** `PATCH /v2/cob/:txid`'s answer: the charge as it is now, as far as the sandbox knows it (what was changed). */
export function efiChargeAnswer(charge: SandboxCharge): SandboxAnswer {
  return {
    httpStatus: 200,
    body: {
      txid: charge.txid,
      revisao: charge.revision,
      status: charge.removed ? removedStatus : "ATIVA",
      ...(charge.amountCents === null ? {} : { valor: { original: valorFromCents(charge.amountCents) } }),
      ...(charge.key === null ? {} : { chave: charge.key.pixKey }),
    },
    answerDelayMs: 0,
  };
}

/** A pay refusal in the words the send classifier reads (`{ nome, mensagem }`). */
export function efiPayRefusal(code: string): SandboxAnswer {
  if (code === "unavailable")
    return { httpStatus: 503, body: { nome: "erro_aplicacao", mensagem: "Serviço indisponível." }, answerDelayMs: 0 };
  return {
    httpStatus: 400,
    body: { nome: code === "expired" ? "qrcode_expirado" : "qrcode_invalido", mensagem: "QR Code não pagável." },
    answerDelayMs: 0,
  };
}
