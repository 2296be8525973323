// The provider port: the one interface the saga talks to. Each adapter (HTTP PSP, ...) lives in
// its own file and turns every answer, timeout and failure into one of these outcomes.

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

export type SendOutcome =
  | { kind: "accepted"; status: "processing" | "confirmed"; endToEndId: string | null; evidence: ProviderEvidence }
  | { kind: "rejected"; code: string; evidence: ProviderEvidence }
  | { kind: "unknown"; why: string; evidence: ProviderEvidence };

export type StatusOutcome =
  | { kind: "confirmed"; endToEndId: string | null; evidence: ProviderEvidence }
  | { kind: "rejected"; code: string; evidence: ProviderEvidence }
  | { kind: "not_found"; evidence: ProviderEvidence }
  | { kind: "processing"; evidence: ProviderEvidence }
  | { kind: "unknown"; why: string; evidence: ProviderEvidence };

/** Never throws: every failure is an outcome (an `unknown` when nothing definitive was learnt). */
export interface PixProvider {
  send(order: PixOrder): Promise<SendOutcome>;
  status(order: PixOrder): Promise<StatusOutcome>;
}
