// Every Efí answer class (CONTRACT §4b) and what it becomes, with the reason: the mapping table.
import { describe, expect, it } from "vitest";
import type { AnswerBody, ProviderExchange } from "../../../src/provider/classify.ts";
import { classifyEfiSend, classifyEfiStatus } from "../../../src/provider/efi/answers.ts";
import type { PixOrder, ProviderEvidence } from "../../../src/provider/port.ts";

const order: PixOrder = {
  idempotencyKey: "2f0e4c1a-6a53-4a8e-9d0b-0a3b8f1d2c11",
  amountCents: 1234,
  pixKey: "ana@example.com",
  pixKeyType: "email",
  description: null,
};
const idEnvio = "2f0e4c1a6a534a8e9d0b0a3b8f1d2c11";
const evidence: ProviderEvidence = { httpStatus: null, durationMs: 12, body: null, error: null };
const e2e = "E09089356202612010614abcdefghijk";
const otherE2e = "E09089356202612010614zzzzzzzzzzz";

const json = (value: unknown): AnswerBody => ({ kind: "json", value });
const answered = (httpStatus: number, body: AnswerBody = { kind: "not_json" }): ProviderExchange => ({
  kind: "answered",
  httpStatus,
  body,
});
const efiError = (nome: string) => json({ nome, mensagem: "texto" });
const sent = (overrides: Record<string, unknown> = {}) =>
  json({ idEnvio, e2eId: e2e, valor: "12.34", horario: { solicitacao: "2026-12-01T06:14:00Z" }, status: "EM_PROCESSAMENTO", ...overrides });
const status = (overrides: Record<string, unknown> = {}) =>
  json({ idEnvio, endToEndId: e2e, valor: "12.34", status: "REALIZADO", horario: { solicitacao: "2026-12-01T06:14:00Z" }, ...overrides });
const gateway404 = { kind: "not_json" } as const;

// biome-ignore format: a table reads best as a grid
const sendCases: [string, ProviderExchange, Record<string, unknown>][] = [
  ["201 EM_PROCESSAMENTO with e2eId (older answers) is accepted",       answered(201, sent()),                                          { kind: "accepted", status: "processing", endToEndId: e2e }],
  ["201 with endToEndId (newer answers) is accepted",                   answered(201, sent({ e2eId: undefined, endToEndId: e2e })),     { kind: "accepted", status: "processing", endToEndId: e2e }],
  ["201 with both names agreeing is accepted",                          answered(201, sent({ endToEndId: e2e })),                       { kind: "accepted", status: "processing", endToEndId: e2e }],
  ["201 REALIZADO is accepted; the status check settles it",            answered(201, sent({ status: "REALIZADO" })),                   { kind: "accepted", status: "processing", endToEndId: e2e }],
  ["201 with both names disagreeing is unknown",                        answered(201, sent({ endToEndId: otherE2e })),                  { kind: "unknown", why: "contradicts_order" }],
  ["201 with another amount is unknown and a critical alert",           answered(201, sent({ valor: "12.35" })),                        { kind: "unknown", why: "contradicts_order", alert: "order_mismatch" }],
  ["201 with another idEnvio is unknown",                               answered(201, sent({ idEnvio: "abc123" })),                     { kind: "unknown", why: "contradicts_order" }],
  ["201 with a float-looking amount is malformed: unknown",             answered(201, sent({ valor: "12.3" })),                         { kind: "unknown", why: "malformed_body" }],
  ["201 with a numeric amount is malformed: unknown",                   answered(201, sent({ valor: 12.34 })),                          { kind: "unknown", why: "malformed_body" }],
  ["201 that is not JSON is unknown: the Pix may have been made",       answered(201),                                                  { kind: "unknown", why: "malformed_body" }],
  ["201 with an unknown status is unknown",                             answered(201, sent({ status: "FEITO" })),                       { kind: "unknown", why: "malformed_body" }],
  ["409 id_envio_duplicado: it exists, check it",                       answered(409, efiError("id_envio_duplicado")),                  { kind: "unknown", why: "already_exists" }],
  ["400 id_envio_duplicado: it exists whatever the status, check it",   answered(400, efiError("id_envio_duplicado")),                  { kind: "unknown", why: "already_exists" }],
  ["422 id_envio_duplicado: it exists, never a refusal",                answered(422, efiError("id_envio_duplicado")),                  { kind: "unknown", why: "already_exists" }],
  ["500 id_envio_duplicado: it exists",                                 answered(500, efiError("id_envio_duplicado")),                  { kind: "unknown", why: "already_exists" }],
  ["400 documento_bloqueado is a rejection",                            answered(400, efiError("documento_bloqueado")),                 { kind: "rejected", code: "documento_bloqueado" }],
  ["400 chave_invalida is a rejection and an alert (our payer key)",    answered(400, efiError("chave_invalida")),                      { kind: "rejected", code: "chave_invalida", alert: "payer_key_invalid" }],
  ["400 chave_nao_pertence_ao_documento is a rejection",                answered(400, efiError("chave_nao_pertence_ao_documento")),     { kind: "rejected", code: "chave_nao_pertence_ao_documento" }],
  ["400 valor_invalido is a rejection",                                 answered(400, efiError("valor_invalido")),                      { kind: "rejected", code: "valor_invalido" }],
  ["422 pagamento_negado is a rejection",                               answered(422, efiError("pagamento_negado")),                    { kind: "rejected", code: "pagamento_negado" }],
  ["400 that is not Efí's error body is unknown",                       answered(400),                                                  { kind: "unknown", why: "http_400_not_efi" }],
  ["400 with an untrustworthy nome is unknown",                         answered(400, efiError("<b>x</b>")),                            { kind: "unknown", why: "http_400_not_efi" }],
  ["401 is unknown and an alert: our credentials",                      answered(401, efiError("nao_autorizado")),                      { kind: "unknown", why: "http_401", alert: "credentials_refused" }],
  ["403 is unknown and an alert: our scopes",                           answered(403, efiError("acesso_negado")),                       { kind: "unknown", why: "http_403", alert: "credentials_refused" }],
  ["404 on a send is unknown: a wrong URL, not a refusal",              answered(404, gateway404),                                      { kind: "unknown", why: "http_404" }],
  ["408 is unknown",                                                    answered(408),                                                  { kind: "unknown", why: "http_408" }],
  ["429 is unknown: not now",                                           answered(429, efiError("BaldeFichasVazio")),                    { kind: "unknown", why: "http_429" }],
  ["500 erro_aplicacao is unknown: it may have made the Pix",           answered(500, efiError("erro_aplicacao")),                      { kind: "unknown", why: "http_500" }],
  ["503 from a gateway is unknown",                                     answered(503),                                                  { kind: "unknown", why: "http_503" }],
  ["302 is unknown: not Efí's answer",                                  answered(302),                                                  { kind: "unknown", why: "http_302" }],
  ["204 is unknown: not Efí's answer",                                  answered(204),                                                  { kind: "unknown", why: "http_204" }],
  ["a timeout is unknown",                                              { kind: "timed_out" },                                          { kind: "unknown", why: "timeout" }],
  ["a reset is unknown",                                                { kind: "failed" },                                             { kind: "unknown", why: "network_error" }],
  ["an oversized body is unknown",                                      { kind: "answered", httpStatus: 201, body: { kind: "too_large" } }, { kind: "unknown", why: "body_too_large" }],
];

// biome-ignore format: a table reads best as a grid
const statusCases: [string, ProviderExchange, Record<string, unknown>][] = [
  ["200 REALIZADO is confirmed",                                        answered(200, status()),                                        { kind: "confirmed", endToEndId: e2e, returns: [] }],
  ["200 REALIZADO with e2eId only is confirmed",                        answered(200, status({ endToEndId: undefined, e2eId: e2e })),   { kind: "confirmed", endToEndId: e2e, returns: [] }],
  ["200 REALIZADO with returns is still confirmed, with them",           answered(200, status({ devolucoes: [{ id: "D1", rtrId: "D99999999202612010615AbCdEfGhIjK", valor: "2.00", natureza: "MED_FRAUDE", horario: { solicitacao: "2026-12-01T07:00:00Z", liquidacao: "2026-12-01T07:00:01Z" }, status: "DEVOLVIDO" }] })), { kind: "confirmed", endToEndId: e2e, returns: [{ id: "D99999999202612010615AbCdEfGhIjK", amountCents: 200, reason: "fraud", atMs: Date.parse("2026-12-01T07:00:01Z") }] }],
  ["200 REALIZADO: a devolução still processing is no return yet",      answered(200, status({ devolucoes: [{ id: "D1", valor: "2.00", horario: { solicitacao: "2026-12-01T07:00:00Z" }, status: "EM_PROCESSAMENTO" }] })), { kind: "confirmed", endToEndId: e2e, returns: [] }],
  ["200 REALIZADO with a devolução without a time is unknown",          answered(200, status({ devolucoes: [{ id: "D1", valor: "2.00", status: "DEVOLVIDO" }] })), { kind: "unknown", why: "malformed_body" }],
  ["200 REALIZADO with returns above the amount is unknown",            answered(200, status({ devolucoes: [{ id: "D1", valor: "12.35", horario: "2026-12-01T07:00:00Z", status: "DEVOLVIDO" }] })), { kind: "unknown", why: "returns_exceed_amount" }],
  ["200 NAO_REALIZADO with an error code is rejected with it",          answered(200, status({ status: "NAO_REALIZADO", gnExtras: { erro: { codigo: "AC03", origem: "PSP", motivo: "conta" } } })), { kind: "rejected", code: "AC03" }],
  ["200 NAO_REALIZADO without a code is rejected nao_realizado",        answered(200, status({ status: "NAO_REALIZADO" })),             { kind: "rejected", code: "nao_realizado" }],
  ["200 EM_PROCESSAMENTO is processing",                                answered(200, status({ status: "EM_PROCESSAMENTO" })),          { kind: "processing" }],
  ["200 with the idEnvio only in gnExtras is read",                     answered(200, status({ idEnvio: undefined, gnExtras: { idEnvio } })), { kind: "confirmed", endToEndId: e2e, returns: [] }],
  ["200 with another amount is unknown and a critical alert",           answered(200, status({ valor: "1234.00" })),                    { kind: "unknown", why: "contradicts_order", alert: "order_mismatch" }],
  ["200 paid to another chave is unknown and a critical alert",         answered(200, status({ chave: "mule@example.com" })),           { kind: "unknown", why: "contradicts_order", alert: "order_mismatch" }],
  ["200 paid to another favorecido.chave is unknown and an alert",      answered(200, status({ favorecido: { chave: "mule@example.com" } })), { kind: "unknown", why: "contradicts_order", alert: "order_mismatch" }],
  ["200 paid to our chave is confirmed",                                answered(200, status({ chave: "ana@example.com" })),            { kind: "confirmed", endToEndId: e2e, returns: [] }],
  ["200 with another idEnvio is unknown",                               answered(200, status({ idEnvio: "outro" })),                    { kind: "unknown", why: "contradicts_order" }],
  ["200 with another idEnvio in gnExtras is unknown",                   answered(200, status({ idEnvio: undefined, gnExtras: { idEnvio: "outro" } })), { kind: "unknown", why: "contradicts_order" }],
  ["200 with disagreeing end-to-end ids is unknown",                    answered(200, status({ e2eId: otherE2e })),                     { kind: "unknown", why: "contradicts_order" }],
  ["200 with junk is unknown",                                          answered(200, json({ ok: true })),                              { kind: "unknown", why: "malformed_body" }],
  ["200 that is not JSON is unknown",                                   answered(200),                                                  { kind: "unknown", why: "malformed_body" }],
  ["404 PixEnviadoNaoEncontrado is not found, settled by a resend",     answered(404, json({ type: "https://pix.bcb.gov.br/api/v2/error/PixEnviadoNaoEncontrado", title: "Não encontrado", status: 404 })), { kind: "not_found", afterGrace: "resend" }],
  ["404 from a gateway (HTML) is unknown",                              answered(404, gateway404),                                      { kind: "unknown", why: "http_404_not_efi" }],
  ["404 in the generic API's words is unknown at Efí",                  answered(404, json({ code: "not_found" })),                     { kind: "unknown", why: "http_404_not_efi" }],
  ["401 is unknown and an alert",                                       answered(401),                                                  { kind: "unknown", why: "http_401", alert: "credentials_refused" }],
  ["403 is unknown and an alert",                                       answered(403),                                                  { kind: "unknown", why: "http_403", alert: "credentials_refused" }],
  ["400 is unknown: a status check cannot reject",                      answered(400, efiError("valor_invalido")),                      { kind: "unknown", why: "http_400" }],
  ["429 is unknown",                                                    answered(429),                                                  { kind: "unknown", why: "http_429" }],
  ["500 is unknown",                                                    answered(500, efiError("erro_aplicacao")),                      { kind: "unknown", why: "http_500" }],
  ["a timeout is unknown",                                              { kind: "timed_out" },                                          { kind: "unknown", why: "timeout" }],
  ["a reset is unknown",                                                { kind: "failed" },                                             { kind: "unknown", why: "network_error" }],
];

describe("classifyEfiSend", () => {
  it.each(sendCases)("%s", (_name, exchange, expected) => {
    expect(classifyEfiSend(order, exchange, evidence)).toEqual({ ...expected, evidence });
  });
});

describe("classifyEfiStatus", () => {
  it.each(statusCases)("%s", (_name, exchange, expected) => {
    expect(classifyEfiStatus(order, exchange, evidence)).toEqual({ ...expected, evidence });
  });
});
