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
