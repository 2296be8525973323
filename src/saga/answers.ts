// The provider's answers in the core's own words: what the saga decides on, and nothing else.
// The provider port (src/provider/port.ts) builds its outcomes from these and adds the
// evidence kept for operators; the core never reads evidence and never imports the port.
import type { ProviderReturn } from "./returns.ts";

export type SendAnswer =
  | { kind: "accepted"; status: "processing" | "confirmed"; endToEndId: string | null }
  | { kind: "rejected"; code: string }
  | { kind: "unknown"; why: string };

export type StatusAnswer =
  /** `returns`: the money that came back so far (devolução, MED), empty for most payments. */
  | { kind: "confirmed"; endToEndId: string | null; returns: readonly ProviderReturn[] }
  | { kind: "rejected"; code: string }
  | { kind: "not_found" }
  | { kind: "processing" }
  | { kind: "unknown"; why: string };
