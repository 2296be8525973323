// Returns (devolução, MED) in the core's words: money that comes back after a completed Pix.
// The provider adapters map their own codes to these reasons; the ledger credits each return once.

export const returnReasons = ["returned_by_recipient", "fraud", "operational_failure", "other"] as const;
export type ReturnReason = (typeof returnReasons)[number];

/** One return as the provider reports it: its id keys the credit, so a repeat is harmless. */
export interface ProviderReturn {
  id: string;
  amountCents: number;
  reason: ReturnReason;
  /** When the provider says the money came back (epoch milliseconds). */
  atMs: number;
}

const dayMs = 24 * 60 * 60 * 1000;

/**
 * How long after completion a poke still asks the provider for returns. A devolução may come
 * days later (MED's claim window is longer, but its returns also reach us through the provider's
 * statement, which reconciliation reads); past this a poke does nothing, so a finished transfer
 * never costs a provider call forever.
 */
export const returnsWatchMs = 7 * dayMs;

/** Returns one status answer may carry: more is not this API talking. */
export const returnsPerAnswerMax = 50;
