// The provider port: the one interface the saga talks to. Each adapter (HTTP PSP, ...) lives in
// its own file and turns every answer, timeout and failure into one of these outcomes: the
// saga core's answers (src/saga/answers.ts) with the evidence kept for operators.
import type { PixKeyType } from "../lib/ids.ts";
import type { SendAnswer, StatusAnswer } from "../saga/answers.ts";
import type { ContestationOutcome, ContestationReason } from "../saga/contestations.ts";
import type { ProviderReturn } from "../saga/returns.ts";

export interface PixOrder {
  /** The transfer id: the provider deduplicates sends by it. */
  idempotencyKey: string;
  amountCents: number;
  pixKey: string;
  pixKeyType: PixKeyType;
  description: string | null;
  /**
   * A dynamic BR Code (Pix Copia e Cola) to pay instead of the key: the provider pays what its
   * payload asks for; amount and key are what it resolved to before the hold (absent: a key).
   */
  brCode?: string;
}

/** What the provider said, kept for operators. `body` is parsed JSON or a string of at most 2 KiB. */
export interface ProviderEvidence {
  httpStatus: number | null;
  durationMs: number;
  body: unknown;
  error: string | null;
  /** Answers before this one in the same call (Efí's 401 that made the adapter ask again). */
  earlier?: readonly ProviderEvidence[];
}

/**
 * What a person must act on, seen in an answer; the saga never reads it (src/alerts/ does). Our
 * own misconfiguration: the provider refused our credentials (401/403, which say nothing of the
 * payment), or our own payer key (Efí `chave_invalida`, a definitive refusal of the send). Or `order_mismatch`: a send or status
 * answer names another amount or key than the order, so money may have left as something else
 * than was held (critical; the answer itself counts as unknown).
 */
export type ProviderAlert = "credentials_refused" | "payer_key_invalid" | "order_mismatch";

export type SendOutcome = SendAnswer & { evidence: ProviderEvidence; alert?: ProviderAlert };

export type StatusOutcome = StatusAnswer & { evidence: ProviderEvidence; alert?: ProviderAlert };

/** A directory (DICT) lookup: who a key belongs to, before sending. */
export interface KeyLookup {
  pixKey: string;
  pixKeyType: PixKeyType;
}

/** The directory's answer, validated but unmasked: the edge masks it for the payer. */
export interface KeyOwner {
  name: string;
  document: string;
  ispb: string;
  institution: string;
}

/** `found` and `not_found` are the directory's answers (a hit, a miss); `unknown` says nothing. */
export type LookupOutcome =
  | { kind: "found"; owner: KeyOwner; evidence: ProviderEvidence }
  | { kind: "not_found"; evidence: ProviderEvidence }
  | { kind: "unknown"; why: string; evidence: ProviderEvidence };

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

/** What a provider says a dynamic BR Code asks for (validated in br-code-resolution.ts). */
export interface ResolvedBrCode {
  /** Normalised as the API stores keys, its type inferred when the provider gives none. */
  pixKey: string;
  pixKeyType: PixKeyType;
  /** Null when the payload lets the payer choose. */
  amountCents: number | null;
  merchantName: string | null;
  merchantCity: string | null;
  txid: string | null;
}

export type BrCodeResolution =
  | { kind: "resolved"; payment: ResolvedBrCode; evidence: ProviderEvidence }
  /** The provider refused the code for good (expired, paid, unknown): `code` is its word. */
  | { kind: "refused"; code: string; evidence: ProviderEvidence }
  /** Nothing definitive was learnt (timeout, 5xx, 429, a malformed answer): try again later. */
  | { kind: "unknown"; why: string; evidence: ProviderEvidence };

/** A customer's contestation of a completed Pix (MED 2.0), as the provider is asked to take it. */
export interface ContestationClaim {
  /** The contested transfer's id: the payment's idempotency key at the provider. */
  idempotencyKey: string;
  reason: ContestationReason;
  details: string;
}

/** The provider took it (`pspRef` is its id there), or nothing definitive was learnt: ask again. */
export type ContestOutcome = ({ kind: "submitted"; pspRef: string } | { kind: "unknown"; why: string }) & { evidence: ProviderEvidence };

/** The provider's decision on a contestation, or still none (`pending`), or no readable answer. */
export type ContestationStatusOutcome = (
  | { kind: "decided"; outcome: ContestationOutcome }
  | { kind: "pending" }
  | { kind: "unknown"; why: string }
) & { evidence: ProviderEvidence };

/** Never throws: every failure is an outcome (an `unknown` when nothing definitive was learnt). */
export interface PixProvider {
  send(order: PixOrder): Promise<SendOutcome>;
  status(order: PixOrder): Promise<StatusOutcome>;
  /** Absent when the provider publishes no directory lookup (Efí). */
  lookup?(query: KeyLookup): Promise<LookupOutcome>;
  /** What a dynamic BR Code asks for (CONTRACT §4, §4b), before anything is held or sent. */
  resolveBrCode(brCode: string): Promise<BrCodeResolution>;
  /** The provider's statement for a window (at most 24 h), every page of it (src/provider/statement.ts). */
  statement(window: StatementWindow): Promise<StatementOutcome>;
  /**
   * Absent when the provider takes no contestations from the payer's side (Efí): operators
   * record them by hand (/ops/contestations). Never moves money: a decision's refund is a return.
   */
  contestations?: ContestationDesk;
}

/** A provider's contestation API (CONTRACT §4): hand one over, then ask for its decision. */
export interface ContestationDesk {
  contest(claim: ContestationClaim): Promise<ContestOutcome>;
  decision(pspRef: string): Promise<ContestationStatusOutcome>;
}
