// The provider port: the one interface the saga talks to. Each adapter (HTTP PSP, ...) lives in
// its own file and turns every answer, timeout and failure into one of these outcomes: the
// saga core's answers (src/saga/answers.ts) with the evidence kept for operators.
import type { SendAnswer, StatusAnswer } from "../saga/answers.ts";
import type { ProviderReturn } from "../saga/returns.ts";

export type PixKeyType = "cpf" | "cnpj" | "email" | "phone" | "evp";

export interface PixOrder {
  /** The transfer id: the provider deduplicates sends by it. */
  idempotencyKey: string;
  amountCents: number;
  pixKey: string;
  pixKeyType: PixKeyType;
  description: string | null;
}

/** What the provider said, kept for operators. `body` is parsed JSON or a string of at most 2 KiB. */
export interface ProviderEvidence {
  httpStatus: number | null;
  durationMs: number;
  body: unknown;
  error: string | null;
}

/**
 * Our own misconfiguration seen in an answer, never the payment's fate: the provider refused our
 * credentials (401/403), or refused our own payer key (Efí `chave_invalida`). A person must act;
 * the saga never reads it (src/alerts/provider-misconfigured.ts does).
 */
export type ProviderAlert = "credentials_refused" | "payer_key_invalid";

export type SendOutcome = SendAnswer & { evidence: ProviderEvidence; alert?: ProviderAlert };

export type StatusOutcome = StatusAnswer & { evidence: ProviderEvidence; alert?: ProviderAlert };

/** A statement's window: sends the provider received at `fromMs` or later and before `toMs`. */
export interface StatementWindow {
  fromMs: number;
  toMs: number;
}

/** One payment on the provider's statement, in the core's words. */
export interface StatementItem {
  /** The idempotency key the provider holds it under (our transfer id, when it is ours). */
  idempotencyKey: string;
  status: "processing" | "confirmed" | "rejected";
  amountCents: number;
  endToEndId: string | null;
  returns: readonly ProviderReturn[];
  /** The item says money came back without listing it (Efí's `devolucaoPresente`): ask status. */
  returnsUnlisted: boolean;
}

/**
 * The whole statement, or what was read before a page failed: an incomplete statement proves
 * nothing about what it does not list (reconciliation then reports no payment as missing).
 */
export type StatementOutcome =
  | { complete: true; items: StatementItem[]; pages: number }
  | { complete: false; why: string; items: StatementItem[]; pages: number; evidence: ProviderEvidence | null; alert?: ProviderAlert };

/** Never throws: every failure is an outcome (an `unknown` when nothing definitive was learnt). */
export interface PixProvider {
  send(order: PixOrder): Promise<SendOutcome>;
  status(order: PixOrder): Promise<StatusOutcome>;
  /** The provider's statement for a window (at most 24 h), every page of it (src/provider/statement.ts). */
  statement(window: StatementWindow): Promise<StatementOutcome>;
}
