// The saga after `completed`: money can still come back (a devolução, MED). A poke of a completed
// transfer (a webhook, the sweeper) asks the provider for its returns while the watch lasts, and
// each return it has not recorded yet is applied. No state changes: a returned transfer stays
// `completed`. Pure, like transition(): the runtime (src/saga-runtime/returns.ts) does the I/O.
import type { StatusAnswer } from "./answers.ts";
import { type ProviderReturn, returnsWatchMs } from "./returns.ts";
import type { TransferState } from "./states.ts";

export interface CompletedView {
  state: TransferState;
  /** When the transfer reached `completed`; null while it has not. */
  completedAtMs: number | null;
  /** The returns already recorded for it. */
  returnIds: readonly string[];
  /**
   * Until when returns are read past the usual watch: a contestation decided in the customer's
   * favour waits for its refund (wall clock); absent or null: no such wait.
   */
  refundWatchUntilMs?: number | null;
}

export type AfterCompletionEvent = { type: "poked" } | { type: "returns_answered"; outcome: StatusAnswer };

export type AfterCompletionCommand = { type: "check_returns" } | { type: "apply_returns"; returns: ProviderReturn[] };

export function isWatchingReturns(view: CompletedView, nowMs: number): boolean {
  if (view.state !== "completed" || view.completedAtMs === null) return false;
  const refundWatchUntilMs = view.refundWatchUntilMs ?? null;
  return nowMs < view.completedAtMs + returnsWatchMs || (refundWatchUntilMs !== null && nowMs < refundWatchUntilMs);
}

export function afterCompletion(view: CompletedView, event: AfterCompletionEvent, nowMs: number): AfterCompletionCommand[] {
  if (!isWatchingReturns(view, nowMs)) return [];
  switch (event.type) {
    case "poked":
      return [{ type: "check_returns" }];
    case "returns_answered": {
      // Only a confirmed payment has returns. Any other answer about a completed transfer (an
      // outage, or the provider contradicting itself) changes nothing here: provider
      // reconciliation holds our books against its statement.
      if (event.outcome.kind !== "confirmed") return [];
      const known = new Set(view.returnIds);
      const fresh = event.outcome.returns.filter((r) => !known.has(r.id));
      return fresh.length === 0 ? [] : [{ type: "apply_returns", returns: fresh }];
    }
  }
}
