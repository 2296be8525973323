// The provider's answers in the core's own words: what the saga decides on, and nothing else.
// The provider port (src/provider/port.ts) builds its outcomes from these and adds the
// evidence kept for operators; the core never reads evidence and never imports the port.
import type { ProviderReturn } from "./returns.ts";

/**
 * How a not-found is settled once the grace window has passed, as the adapter says: `release`
 * (CONTRACT §4: nothing was sent, compensate) or `resend` (§4b, Efí: send again with the same
 * id; only a definitive rejection of that send releases the hold).
 */
export type NotFoundSettlement = "release" | "resend";

export type SendAnswer =
  | { kind: "accepted"; status: "processing" | "confirmed"; endToEndId: string | null }
  | { kind: "rejected"; code: string }
  | { kind: "unknown"; why: string };

export type StatusAnswer =
  /** `returns`: the money that came back so far (devolução, MED), empty for most payments. */
  | { kind: "confirmed"; endToEndId: string | null; returns: readonly ProviderReturn[] }
  | { kind: "rejected"; code: string }
  | { kind: "not_found"; afterGrace: NotFoundSettlement }
  | { kind: "processing" }
  | { kind: "unknown"; why: string };

/**
 * A dynamic BR Code resolved again just before a send, against what the transfer holds (its
 * amount, key and key type, and that the charge can still be paid).
 */
export type BrCodeCheck =
  | { kind: "unchanged" }
  /** The charge asks for something else now, or is gone: `what` says which. */
  | { kind: "changed"; what: string }
  /** The provider said nothing definitive (timeout, 5xx, a malformed answer): ask again later. */
  | { kind: "unknown"; why: string };
