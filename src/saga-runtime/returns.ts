// Runs the saga's after-completion decisions (src/saga/after-completion.ts) against its ports:
// ask the provider for a completed transfer's returns, then apply each new one through
// transfer_return_apply, which credits it once whoever else (reconciliation, another poke)
// reports it at the same moment.

import { afterCompletion, type CompletedView } from "../saga/after-completion.ts";
import type { ProviderReturn } from "../saga/returns.ts";
import { type ReturnApplyResult, transferReturnApply } from "../transfers/returns.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";
import { orderOf, type SagaPorts } from "./advance.ts";

export type ReturnsWatch =
  | { checked: false }
  | { checked: true; answer: string; applied: { id: string; amountCents: number; result: ReturnApplyResult }[] };

export function completedViewOf(saga: SagaRecord): CompletedView {
  return { state: saga.state, completedAtMs: saga.completedAtMs, returnIds: saga.returnIds };
}

/**
 * The completion as the watch judges it: the 7 days are business time's (docs/clock.md), counted
 * from the completion's business time, so on the wall clock they end earlier by whatever the test
 * clock advanced since. The completion moves back by that much and both windows are compared with
 * the wall clock, since a contestation's refund wait (`refundWatchUntilMs`) stays on it.
 */
async function watchedViewOf(ports: SagaPorts, saga: SagaRecord, refundWatchUntilMs: number | null): Promise<CompletedView> {
  const view = { ...completedViewOf(saga), refundWatchUntilMs };
  if (view.completedAtMs === null || ports.clockAdvancedSinceMs === undefined) return view;
  return { ...view, completedAtMs: view.completedAtMs - (await ports.clockAdvancedSinceMs(view.completedAtMs)) };
}

/** `refundWatchUntilMs`: a contestation's refund is awaited until then, past the usual watch. */
export async function watchReturns(ports: SagaPorts, saga: SagaRecord, refundWatchUntilMs: number | null = null): Promise<ReturnsWatch> {
  const view = await watchedViewOf(ports, saga, refundWatchUntilMs);
  const nowMs = ports.nowMs();
  const asked = afterCompletion(view, { type: "poked" }, nowMs);
  if (!asked.some((c) => c.type === "check_returns")) return { checked: false };
  const outcome = await ports.provider.status(orderOf(saga));
  const applied: { id: string; amountCents: number; result: ReturnApplyResult }[] = [];
  for (const command of afterCompletion(view, { type: "returns_answered", outcome }, nowMs)) {
    if (command.type !== "apply_returns") continue;
    // One at a time, oldest first: each is its own short transaction under the transfer's lock.
    const ordered: ProviderReturn[] = [...command.returns].sort((a, b) => a.atMs - b.atMs || a.id.localeCompare(b.id));
    for (const found of ordered) {
      applied.push({ id: found.id, amountCents: found.amountCents, result: await transferReturnApply(ports.db, saga.id, found) });
    }
  }
  return { checked: true, answer: outcome.kind === "unknown" ? `unknown:${outcome.why}` : outcome.kind, applied };
}
