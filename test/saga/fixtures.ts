// Saga test fixtures: provider outcomes with dummy evidence (the pure core never reads it), and
// the view a Durable Object would reload after a transition.
import type { ProviderEvidence, SendOutcome, StatusOutcome } from "../../src/provider/port.ts";
import type { NotFoundSettlement } from "../../src/saga/answers.ts";
import type { ProviderReturn } from "../../src/saga/returns.ts";
import type { SagaChange, SagaView, Transition } from "../../src/saga/transition.ts";

export const evidence: ProviderEvidence = { httpStatus: null, durationMs: 0, body: null, error: null };

export const sendOutcome = {
  accepted: (status: "processing" | "confirmed", endToEndId: string | null = null): SendOutcome => ({
    kind: "accepted",
    status,
    endToEndId,
    evidence,
  }),
  rejected: (code: string): SendOutcome => ({ kind: "rejected", code, evidence }),
  unknown: (why: string): SendOutcome => ({ kind: "unknown", why, evidence }),
};

export const statusOutcome = {
  confirmed: (endToEndId: string | null = null, returns: readonly ProviderReturn[] = []): StatusOutcome => ({
    kind: "confirmed",
    endToEndId,
    returns,
    evidence,
  }),
  rejected: (code: string): StatusOutcome => ({ kind: "rejected", code, evidence }),
  notFound: (afterGrace: NotFoundSettlement = "release"): StatusOutcome => ({ kind: "not_found", afterGrace, evidence }),
  processing: (): StatusOutcome => ({ kind: "processing", evidence }),
  unknown: (why: string): StatusOutcome => ({ kind: "unknown", why, evidence }),
};

/** The view after a transition, as the Durable Object would reload it from what it persisted. */
export function advance(view: SagaView, result: Transition): SagaView {
  const persist = result.commands.find((c) => c.type === "persist");
  if (persist === undefined) return view;
  return { ...view, state: result.state, checksMade: persist.change.checksMade, lastSentAtMs: persist.change.lastSentAtMs };
}

/** The one persisted change of a transition, or null when it persists nothing. */
export function persistedChange(result: Transition): SagaChange | null {
  const persists = result.commands.filter((c) => c.type === "persist");
  if (persists.length > 1) throw new Error("a transition persists at most once");
  return persists[0]?.change ?? null;
}
