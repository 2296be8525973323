// The Efí adapter (CONTRACT §4b) behind the provider port: builds Efí's requests, carries the
// OAuth2 token (asking once more after a 401: a token revoked early), and hands every answer to
// answers.ts. Bounded like the generic adapter: http-exchange times each call out.
import type { BrCodeResolution } from "../br-code-resolution.ts";
import { isCredentialsRefusal, type ProviderExchange } from "../classify.ts";
import { type ExchangeRequest, exchangeOnce, type Fetcher } from "../http-exchange.ts";
import type {
  PixOrder,
  PixProvider,
  ProviderAlert,
  ProviderEvidence,
  SendOutcome,
  StatementOutcome,
  StatementWindow,
  StatusOutcome,
} from "../port.ts";
import { readStatement, windowInstant } from "../statement.ts";
import { classifyEfiSend, classifyEfiStatus } from "./answers.ts";
import { idEnvioOf } from "./money.ts";
import { classifyEfiDetalhar, qrCodePayBody } from "./qrcode.ts";
import { sendBody } from "./shapes.ts";
import { classifyEfiStatementPage, statementPath } from "./statement.ts";
import { createTokenClient, type TokenCache } from "./token.ts";

export interface EfiProviderOptions {
  /** e.g. `https://pix.api.efipay.com.br`; Efí's paths are appended. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The fintech's own Pix key at Efí (`pagador.chave`). */
  payerKey: string;
  timeoutMs: number;
  /** The `EFI_CERT` mTLS binding's fetch in production; plain fetch locally. */
  fetcher: Fetcher;
  nowMs?: () => number;
  tokenCache?: TokenCache;
}

/** What a call is for: a 403 refuses one of these (a scope), and is remembered for it alone. */
type EfiOperation = "send" | "status" | "detalhar" | "statement";

type Called =
  | { kind: "answered"; exchange: ProviderExchange; evidence: ProviderEvidence }
  | { kind: "no_token"; why: string; evidence: ProviderEvidence; alert?: ProviderAlert };

export function createEfiProvider(options: EfiProviderOptions): PixProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const tokens = createTokenClient({
    baseUrl,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    timeoutMs: options.timeoutMs,
    fetcher: options.fetcher,
    nowMs: options.nowMs ?? (() => Date.now()),
    ...(options.tokenCache === undefined ? {} : { cache: options.tokenCache }),
  });

  /**
   * One call with a token; after a 401, one more with a fresh token (a PUT by idEnvio is
   * idempotent). The refused answer stays in the evidence beside the retry's: operators see both.
   * A refusal that stands (a 401 with a fresh token, a 403) is remembered by the token client, so
   * the next minute's calls (`operation`'s, for a 403) are answered from memory.
   */
  async function call(operation: EfiOperation, request: Omit<ExchangeRequest, "headers">): Promise<Called> {
    let refusedEvidence: ProviderEvidence | null = null;
    const withEarlier = (evidence: ProviderEvidence): ProviderEvidence =>
      refusedEvidence === null
        ? evidence
        : { ...evidence, durationMs: refusedEvidence.durationMs + evidence.durationMs, earlier: [refusedEvidence] };
    for (let attempt = 1; ; attempt++) {
      const token = await tokens.token(operation);
      if (!token.ok)
        return { kind: "no_token", why: token.why, evidence: withEarlier(token.evidence), ...(token.alert ? { alert: token.alert } : {}) };
      const headers: Record<string, string> = { accept: "application/json", authorization: `Bearer ${token.accessToken}` };
      if (request.body !== null) headers["content-type"] = "application/json";
      const { exchange, evidence } = await exchangeOnce(options.fetcher, { ...request, headers }, options.timeoutMs);
      const httpStatus = exchange.kind === "answered" ? exchange.httpStatus : null;
      const refused = httpStatus === 401;
      if (!refused || attempt >= 2) {
        if (httpStatus !== null && isCredentialsRefusal(httpStatus))
          tokens.refused(refused ? null : operation, `http_${httpStatus}`, evidence);
        return { kind: "answered", exchange, evidence: withEarlier(evidence) };
      }
      refusedEvidence = evidence;
      tokens.invalidate(token.accessToken);
    }
  }

  return {
    async send(order: PixOrder): Promise<SendOutcome> {
      const idEnvio = idEnvioOf(order.idempotencyKey);
      // A dynamic BR Code is paid through its own route; Efí answers it like any send.
      const { brCode } = order;
      const called =
        brCode === undefined
          ? await call("send", {
              url: `${baseUrl}/v3/gn/pix/${idEnvio}`,
              method: "PUT",
              body: JSON.stringify(sendBody(order, options.payerKey)),
            })
          : await call("send", {
              url: `${baseUrl}/v2/gn/pix/${idEnvio}/qrcode`,
              method: "PUT",
              body: JSON.stringify(qrCodePayBody({ ...order, brCode }, options.payerKey)),
            });
      // Without a token nothing reached Efí; still unknown, so the status check (and, after the
      // grace window, the resend) settles it with the same idEnvio.
      if (called.kind === "no_token") return { kind: "unknown", why: called.why, evidence: called.evidence, ...alertOf(called) };
      return classifyEfiSend(order, called.exchange, called.evidence);
    },
    async status(order: PixOrder): Promise<StatusOutcome> {
      const url = `${baseUrl}/v2/gn/pix/enviados/id-envio/${idEnvioOf(order.idempotencyKey)}`;
      const called = await call("status", { url, method: "GET", body: null });
      if (called.kind === "no_token") return { kind: "unknown", why: called.why, evidence: called.evidence, ...alertOf(called) };
      return classifyEfiStatus(order, called.exchange, called.evidence);
    },
    async resolveBrCode(brCode: string): Promise<BrCodeResolution> {
      const called = await call("detalhar", {
        url: `${baseUrl}/v2/gn/qrcodes/detalhar`,
        method: "POST",
        body: JSON.stringify({ pixCopiaECola: brCode }),
      });
      if (called.kind === "no_token") return { kind: "unknown", why: called.why, evidence: called.evidence };
      return classifyEfiDetalhar(called.exchange, called.evidence);
    },
    async statement(window: StatementWindow): Promise<StatementOutcome> {
      const [inicio, fim] = [windowInstant(window.fromMs), windowInstant(window.toMs)];
      return readStatement(0, async (page) => {
        const called = await call("statement", { url: `${baseUrl}${statementPath(inicio, fim, page)}`, method: "GET", body: null });
        if (called.kind === "no_token") return { ok: false, why: called.why, evidence: called.evidence, ...alertOf(called) };
        return classifyEfiStatementPage(called.exchange, called.evidence, page);
      });
    },
  };
}

function alertOf(called: { alert?: ProviderAlert }): { alert?: ProviderAlert } {
  return called.alert === undefined ? {} : { alert: called.alert };
}
