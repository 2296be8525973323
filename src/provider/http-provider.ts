// The HTTP adapter of CONTRACT §4: an idempotent PUT keyed by the transfer id to send, a GET to
// ask, a GET of the directory, a paged GET for the statement. It only builds requests;
// http-exchange bounds them and classify judges the answers.
import type { BrCodeResolution } from "./br-code-resolution.ts";
import { classifySend, classifyStatus } from "./classify.ts";
import { classifyContest, classifyDecision } from "./classify-contestation.ts";
import { classifyLookup } from "./classify-lookup.ts";
import { classifyResolve } from "./classify-resolve.ts";
import { exchangeOnce, type Fetcher } from "./http-exchange.ts";
import type {
  ContestationClaim,
  ContestationStatusOutcome,
  ContestOutcome,
  KeyLookup,
  LookupOutcome,
  PixOrder,
  PixProvider,
  SendOutcome,
  StatementOutcome,
  StatementWindow,
  StatusOutcome,
} from "./port.ts";
import { readStatement, windowInstant } from "./statement.ts";
import { classifyStatementPage } from "./statement-answers.ts";

export interface HttpProviderOptions {
  /** e.g. `https://psp.example/v1`; `/pix/{idempotency_key}` is appended. */
  baseUrl: string;
  token: string | undefined;
  timeoutMs: number;
  fetcher: Fetcher;
}

export function createHttpProvider(options: HttpProviderOptions): PixProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.token !== undefined && options.token !== "") headers.authorization = `Bearer ${options.token}`;
  const urlOf = (order: PixOrder): string => `${baseUrl}/pix/${encodeURIComponent(order.idempotencyKey)}`;

  return {
    async send(order: PixOrder): Promise<SendOutcome> {
      // A dynamic BR Code is paid as the code itself; the provider checks the amount against it.
      const payee = order.brCode === undefined ? { pix_key: order.pixKey, pix_key_type: order.pixKeyType } : { br_code: order.brCode };
      const body = JSON.stringify({ amount_cents: order.amountCents, ...payee, description: order.description });
      const request = { url: urlOf(order), method: "PUT", headers: { ...headers, "content-type": "application/json" }, body } as const;
      const { exchange, evidence } = await exchangeOnce(options.fetcher, request, options.timeoutMs);
      return classifySend(order, exchange, evidence);
    },
    async status(order: PixOrder): Promise<StatusOutcome> {
      const request = { url: urlOf(order), method: "GET", headers, body: null } as const;
      const { exchange, evidence } = await exchangeOnce(options.fetcher, request, options.timeoutMs);
      return classifyStatus(order, exchange, evidence);
    },
    async lookup(query: KeyLookup): Promise<LookupOutcome> {
      const url = `${baseUrl}/dict/${encodeURIComponent(query.pixKey)}?type=${query.pixKeyType}`;
      const { exchange, evidence } = await exchangeOnce(options.fetcher, { url, method: "GET", headers, body: null }, options.timeoutMs);
      return classifyLookup(exchange, evidence);
    },
    async resolveBrCode(brCode: string): Promise<BrCodeResolution> {
      const body = JSON.stringify({ br_code: brCode });
      const request = {
        url: `${baseUrl}/br-codes/resolve`,
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body,
      } as const;
      const { exchange, evidence } = await exchangeOnce(options.fetcher, request, options.timeoutMs);
      return classifyResolve(exchange, evidence);
    },
    contestations: {
      async contest(claim: ContestationClaim): Promise<ContestOutcome> {
        const body = JSON.stringify({ reason: claim.reason, details: claim.details });
        const url = `${baseUrl}/pix/${encodeURIComponent(claim.idempotencyKey)}/contestations`;
        const request = { url, method: "POST", headers: { ...headers, "content-type": "application/json" }, body } as const;
        const { exchange, evidence } = await exchangeOnce(options.fetcher, request, options.timeoutMs);
        return classifyContest(exchange, evidence);
      },
      async decision(pspRef: string): Promise<ContestationStatusOutcome> {
        const url = `${baseUrl}/contestations/${encodeURIComponent(pspRef)}`;
        const { exchange, evidence } = await exchangeOnce(options.fetcher, { url, method: "GET", headers, body: null }, options.timeoutMs);
        return classifyDecision(pspRef, exchange, evidence);
      },
    },
    async statement(window: StatementWindow): Promise<StatementOutcome> {
      const query = `from=${encodeURIComponent(windowInstant(window.fromMs))}&to=${encodeURIComponent(windowInstant(window.toMs))}`;
      return readStatement("", async (cursor) => {
        const url = `${baseUrl}/pix?${query}${cursor === "" ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
        const { exchange, evidence } = await exchangeOnce(options.fetcher, { url, method: "GET", headers, body: null }, options.timeoutMs);
        return classifyStatementPage(exchange, evidence, cursor);
      });
    },
  };
}
