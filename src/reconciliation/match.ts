// Provider reconciliation's judgement (CONTRACT §5): our transfers held against the provider's
// statement for a window. Pure, like src/saga/after-completion.ts: the runner (run.ts) reads
// both sides, asks the provider about a transfer the statement does not list (a send at the
// window's edge may sit on the next day's statement), and applies the returns found here.
import type { StatementItem } from "../provider/port.ts";
import type { StatusAnswer } from "../saga/answers.ts";
import type { ProviderReturn } from "../saga/returns.ts";
import type { FailureReason, TransferState } from "../saga/states.ts";

export const divergenceKinds = [
  "paid_after_release",
  "missing_at_provider",
  "amount_mismatch",
  "state_mismatch",
  "unknown_at_provider_key",
] as const;
export type DivergenceKind = (typeof divergenceKinds)[number];

/** One of our transfers as reconciliation sees it. */
export interface OurTransfer {
  id: string;
  state: TransferState;
  amountCents: number;
  endToEndId: string | null;
  failureReason: FailureReason | null;
  /** When it reached `compensated` (our release), null otherwise. */
  releasedAtMs: number | null;
  returnIds: readonly string[];
  /** Its first send falls in the window: the provider's statement must list it. */
  inWindow: boolean;
}

export type OursView = {
  state: TransferState;
  amount_cents: number;
  end_to_end_id: string | null;
  failure_reason: FailureReason | null;
  released_at: string | null;
};
export type ProviderView = { status: string; amount_cents: number | null; end_to_end_id: string | null; detail?: string };

export interface Divergence {
  kind: DivergenceKind;
  /** Ours, or for `unknown_at_provider_key` the key the provider holds the payment under. */
  transferId: string;
  endToEndId: string | null;
  ours: OursView | null;
  provider: ProviderView | null;
}

export interface FoundReturn {
  transferId: string;
  found: ProviderReturn;
}

export interface Match {
  /** Transfers compared: ours in the window and every payment on the statement, once each. */
  checked: number;
  divergences: Divergence[];
  returns: FoundReturn[];
  /** Completed in the window, not on a complete statement: ask the provider before reporting. */
  unlisted: OurTransfer[];
  /** Confirmed on the statement with returns it does not list (Efí's devolucaoPresente): ask. */
  askReturns: OurTransfer[];
}

/** Still ours to finish: in flight, or waiting for a person. */
function isWaiting(state: TransferState): boolean {
  return state !== "completed" && state !== "compensated";
}

export function oursView(t: OurTransfer): OursView {
  return {
    state: t.state,
    amount_cents: t.amountCents,
    end_to_end_id: t.endToEndId,
    failure_reason: t.failureReason,
    released_at: t.releasedAtMs === null ? null : new Date(t.releasedAtMs).toISOString(),
  };
}

function providerView(item: StatementItem): ProviderView {
  return { status: item.status, amount_cents: item.amountCents, end_to_end_id: item.endToEndId };
}

function divergence(kind: DivergenceKind, t: OurTransfer, item: StatementItem): Divergence {
  return { kind, transferId: t.id, endToEndId: item.endToEndId ?? t.endToEndId, ours: oursView(t), provider: providerView(item) };
}

/** Returns the provider lists that we have not recorded yet. */
function freshReturns(t: OurTransfer, returns: readonly ProviderReturn[]): FoundReturn[] {
  const known = new Set(t.returnIds);
  return returns.filter((r) => !known.has(r.id)).map((found) => ({ transferId: t.id, found }));
}

/**
 * Which state each side's pair makes a divergence. The provider's word on the payment's fate
 * against ours: a released transfer the provider paid is money gone (`paid_after_release`);
 * any other disagreement, a final status against our waiting or two different final states, is
 * `state_mismatch`. Agreement is null.
 */
function judge(t: OurTransfer, item: StatementItem): DivergenceKind | null {
  if (item.amountCents !== t.amountCents) return "amount_mismatch";
  if (sameFate(t.state, item.status)) return null;
  return item.status === "confirmed" && t.state === "compensated" ? "paid_after_release" : "state_mismatch";
}

/**
 * Whether our state and the provider's word tell the same fate: paid (completed, confirmed), not
 * paid (compensated, rejected), or still open (waiting, processing). Any other word (unknown, a
 * status we do not know) agrees with nothing. The console marks what this says differs.
 */
export function sameFate(state: TransferState, providerStatus: string): boolean {
  switch (providerStatus) {
    case "confirmed":
      return state === "completed";
    case "rejected":
      return state === "compensated";
    case "processing":
      return isWaiting(state);
    default:
      return false;
  }
}

export function matchStatement(ours: readonly OurTransfer[], statement: { complete: boolean; items: readonly StatementItem[] }): Match {
  const byId = new Map(ours.map((t) => [t.id, t]));
  const listed = new Map<string, StatementItem>();
  for (const item of statement.items) listed.set(item.idempotencyKey, item);
  const divergences: Divergence[] = [];
  const returns: FoundReturn[] = [];
  const askReturns: OurTransfer[] = [];
  for (const item of listed.values()) {
    const t = byId.get(item.idempotencyKey);
    if (t === undefined) {
      // A payment under an id we never sent; a refused one moved nothing.
      if (item.status !== "rejected") {
        divergences.push({
          kind: "unknown_at_provider_key",
          transferId: item.idempotencyKey,
          endToEndId: item.endToEndId,
          ours: null,
          provider: providerView(item),
        });
      }
      continue;
    }
    const kind = judge(t, item);
    if (kind !== null) {
      divergences.push(divergence(kind, t, item));
      continue;
    }
    if (item.status !== "confirmed") continue;
    returns.push(...freshReturns(t, item.returns));
    if (item.returnsUnlisted) askReturns.push(t);
  }
  // Only a complete statement proves a payment absent.
  const unlisted = statement.complete ? ours.filter((t) => t.inWindow && t.state === "completed" && !listed.has(t.id)) : [];
  const checked = new Set([...ours.filter((t) => t.inWindow).map((t) => t.id), ...listed.keys()]).size;
  return { checked, divergences, returns, unlisted, askReturns };
}

/**
 * A completed transfer the statement did not list, after asking the provider about it: a
 * confirmation means the statement missed it (a send at the window's edge) and brings its
 * returns; anything else is a completed transfer the provider does not hold as paid.
 */
export function judgeUnlisted(t: OurTransfer, answer: StatusAnswer): { divergence: Divergence | null; returns: FoundReturn[] } {
  if (answer.kind === "confirmed") return { divergence: null, returns: freshReturns(t, answer.returns) };
  const kind: DivergenceKind = answer.kind === "processing" ? "state_mismatch" : "missing_at_provider";
  const provider: ProviderView = {
    status: answer.kind === "unknown" ? "unknown" : answer.kind,
    amount_cents: null,
    end_to_end_id: null,
    detail: answer.kind === "unknown" ? answer.why : "not on the statement",
  };
  return { divergence: { kind, transferId: t.id, endToEndId: t.endToEndId, ours: oursView(t), provider }, returns: [] };
}
