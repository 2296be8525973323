// The reconciliation matcher on scripted inputs: each divergence kind from the pair of states
// that makes it, returns found once, the edge cases that must not alarm, and a clean day.
import { describe, expect, it } from "vitest";
import type { StatementItem } from "../../src/provider/port.ts";
import { judgeUnlisted, matchStatement, type OurTransfer } from "../../src/reconciliation/match.ts";

let counter = 0;
function ours(overrides: Partial<OurTransfer> = {}): OurTransfer {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, "0")}`,
    state: "completed",
    amountCents: 1_000,
    endToEndId: `E12345678202612011200${String(counter).padStart(11, "0")}`,
    failureReason: null,
    releasedAtMs: null,
    returnIds: [],
    inWindow: true,
    ...overrides,
  };
}

function listed(t: OurTransfer, overrides: Partial<StatementItem> = {}): StatementItem {
  return {
    idempotencyKey: t.id,
    status: "confirmed",
    amountCents: t.amountCents,
    endToEndId: t.endToEndId,
    returns: [],
    returnsUnlisted: false,
    ...overrides,
  };
}

const complete = (items: StatementItem[]) => ({ complete: true, items });

describe("matchStatement", () => {
  it("finds nothing on a clean day of 200 transfers, completed, released and waiting", () => {
    const transfers = Array.from({ length: 200 }, (_, n) => {
      if (n % 10 === 0) return ours({ state: "compensated", failureReason: "provider_rejected", releasedAtMs: 1 });
      if (n % 10 === 1) return ours({ state: "compensated", failureReason: "not_sent", releasedAtMs: 1, endToEndId: null });
      if (n % 10 === 2) return ours({ state: "submitted" });
      return ours({ amountCents: 100 + n });
    });
    const items = transfers.flatMap((t, n) => {
      if (n % 10 === 0) return [listed(t, { status: "rejected" })];
      if (n % 10 === 1) return [];
      if (n % 10 === 2) return [listed(t, { status: "processing" })];
      return [listed(t)];
    });
    const match = matchStatement(transfers, complete(items));
    expect(match).toEqual({ checked: 200, divergences: [], returns: [], unlisted: [], askReturns: [] });
  });

  it("paid_after_release: we released, the provider paid, with both sides' evidence", () => {
    const t = ours({ state: "compensated", failureReason: "not_sent", releasedAtMs: Date.parse("2026-12-01T12:00:00Z"), endToEndId: null });
    const match = matchStatement([t], complete([listed(t, { endToEndId: "E99999999202612011200ABCDEFGHIJK" })]));
    expect(match.divergences).toEqual([
      {
        kind: "paid_after_release",
        transferId: t.id,
        endToEndId: "E99999999202612011200ABCDEFGHIJK",
        ours: {
          state: "compensated",
          amount_cents: 1_000,
          end_to_end_id: null,
          failure_reason: "not_sent",
          released_at: "2026-12-01T12:00:00.000Z",
        },
        provider: { status: "confirmed", amount_cents: 1_000, end_to_end_id: "E99999999202612011200ABCDEFGHIJK" },
      },
    ]);
  });

  it("amount_mismatch: the provider paid another amount, and no return of it is applied", () => {
    const t = ours();
    const item = listed(t, { amountCents: 1_001, returns: [{ id: "D1", amountCents: 10, reason: "fraud", atMs: 1 }] });
    const match = matchStatement([t], complete([item]));
    expect(match.divergences.map((d) => [d.kind, d.ours?.amount_cents, d.provider?.amount_cents])).toEqual([
      ["amount_mismatch", 1_000, 1_001],
    ]);
    expect(match.returns).toEqual([]);
  });

  it("state_mismatch: still waiting while the provider is final, or final states that differ", () => {
    const waitingPaid = ours({ state: "submitted" });
    const reviewRejected = ours({ state: "needs_review" });
    const completedRejected = ours();
    const releasedProcessing = ours({ state: "compensated", failureReason: "not_sent", releasedAtMs: 1 });
    const match = matchStatement(
      [waitingPaid, reviewRejected, completedRejected, releasedProcessing],
      complete([
        listed(waitingPaid),
        listed(reviewRejected, { status: "rejected" }),
        listed(completedRejected, { status: "rejected" }),
        listed(releasedProcessing, { status: "processing" }),
      ]),
    );
    expect(match.divergences.map((d) => [d.kind, d.transferId, d.ours?.state, d.provider?.status])).toEqual([
      ["state_mismatch", waitingPaid.id, "submitted", "confirmed"],
      ["state_mismatch", reviewRejected.id, "needs_review", "rejected"],
      ["state_mismatch", completedRejected.id, "completed", "rejected"],
      ["state_mismatch", releasedProcessing.id, "compensated", "processing"],
    ]);
  });

  it("unknown_at_provider_key: a payment under an id we never sent, unless it was refused", () => {
    const paid: StatementItem = {
      idempotencyKey: "not-ours",
      status: "confirmed",
      amountCents: 5,
      endToEndId: null,
      returns: [],
      returnsUnlisted: false,
    };
    const refused: StatementItem = { ...paid, idempotencyKey: "refused", status: "rejected" };
    const match = matchStatement([], complete([paid, refused]));
    expect(match.divergences).toEqual([
      {
        kind: "unknown_at_provider_key",
        transferId: "not-ours",
        endToEndId: null,
        ours: null,
        provider: { status: "confirmed", amount_cents: 5, end_to_end_id: null },
      },
    ]);
    expect(match.checked).toBe(2);
  });

  it("missing_at_provider only after asking: a completed transfer off a complete statement is asked about first", () => {
    const t = ours();
    const match = matchStatement([t], complete([]));
    expect(match.divergences).toEqual([]);
    expect(match.unlisted).toEqual([t]);
    expect(judgeUnlisted(t, { kind: "not_found", afterGrace: "release" }).divergence).toMatchObject({
      kind: "missing_at_provider",
      transferId: t.id,
      ours: { state: "completed" },
      provider: { status: "not_found" },
    });
    expect(judgeUnlisted(t, { kind: "unknown", why: "timeout" }).divergence).toMatchObject({
      kind: "missing_at_provider",
      provider: { detail: "timeout" },
    });
    expect(judgeUnlisted(t, { kind: "processing" }).divergence?.kind).toBe("state_mismatch");
  });

  it("a transfer the statement missed at the window's edge is no divergence when the provider confirms it, and brings its returns", () => {
    const t = ours({ returnIds: ["D-old"] });
    const returns = [
      { id: "D-old", amountCents: 100, reason: "fraud" as const, atMs: 1 },
      { id: "D-new", amountCents: 200, reason: "fraud" as const, atMs: 2 },
    ];
    expect(judgeUnlisted(t, { kind: "confirmed", endToEndId: t.endToEndId, returns })).toEqual({
      divergence: null,
      returns: [{ transferId: t.id, found: returns[1] }],
    });
  });

  it("asks about nothing missing when the statement is incomplete, and about nothing outside the window", () => {
    const inWindow = ours();
    const outside = ours({ inWindow: false });
    expect(matchStatement([inWindow, outside], { complete: false, items: [] }).unlisted).toEqual([]);
    expect(matchStatement([outside], complete([])).unlisted).toEqual([]);
  });

  it("a transfer first sent before the window but listed on it is matched, not unknown", () => {
    const t = ours({ inWindow: false, state: "compensated", failureReason: "not_sent", releasedAtMs: 1 });
    expect(matchStatement([t], complete([listed(t)])).divergences.map((d) => d.kind)).toEqual(["paid_after_release"]);
  });

  it("returns: only those not recorded yet, and a request to ask when the list only flags them", () => {
    const t = ours({ returnIds: ["D1"] });
    const flagged = ours();
    const item = listed(t, {
      returns: [
        { id: "D1", amountCents: 100, reason: "fraud", atMs: 1 },
        { id: "D2", amountCents: 100, reason: "fraud", atMs: 2 },
      ],
    });
    const match = matchStatement([t, flagged], complete([item, listed(flagged, { returnsUnlisted: true })]));
    expect(match.returns.map((r) => [r.transferId, r.found.id])).toEqual([[t.id, "D2"]]);
    expect(match.askReturns).toEqual([flagged]);
  });
});
