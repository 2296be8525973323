// The steps people take on a contestation through its transfer's object: the owner's cancel
// (CONTRACT §2, from open or submitted) and, for a provider without a contestation API (Efí),
// an operator's record of the hand-over and of the decision (§5, audited in the same
// transaction). Each is one guarded write; the object then drives what follows (a refunding
// decision makes it read the transfer's returns).
import type { Queryable } from "../db/queryable.ts";
import { type ContestationOutcome, isActive, isRefunding, refundWatchMs } from "../saga/contestations.ts";
import { applyContestation, type ContestationChange, contestationRecord } from "../transfers/contestations.ts";
import type { ContestationStepResult } from "./rpc-results.ts";

export type ContestationStep =
  | { kind: "cancel" }
  | { kind: "submitted"; pspRef: string; note: string; actor: string }
  | { kind: "decision"; outcome: ContestationOutcome; note: string; actor: string };

export interface StepClock {
  nowMs: number;
  businessNowMs: number;
  /** The provider has a contestation API: its object forwards and asks; people record nothing. */
  providerDrives: boolean;
}

export async function takeContestationStep(
  db: Queryable,
  contestationId: string,
  step: ContestationStep,
  clock: StepClock,
): Promise<ContestationStepResult> {
  const record = await contestationRecord(db, contestationId);
  if (record === null) return { outcome: "not_found" };
  if (step.kind !== "cancel" && clock.providerDrives) return { outcome: "provider_drives_it" };
  const from = step.kind === "cancel" ? (isActive(record.state) ? record.state : null) : step.kind === "submitted" ? "open" : "submitted";
  if (from === null || record.state !== from) return { outcome: "wrong_state", state: record.state };
  const result = await applyContestation(db, contestationId, from, changeOf(step, clock));
  if (result.outcome === "not_found") return result;
  if (result.outcome === "state_mismatch") return { outcome: "wrong_state", state: result.state };
  return { outcome: "done", state: result.state };
}

function changeOf(step: ContestationStep, clock: StepClock): ContestationChange {
  switch (step.kind) {
    case "cancel":
      return { state: "canceled", nextCheckAtMs: null };
    case "submitted":
      return {
        state: "submitted",
        pspRef: step.pspRef,
        submittedAtMs: clock.businessNowMs,
        audit: { actor: step.actor, action: "contestation_submitted", note: step.note },
      };
    case "decision": {
      const refunding = isRefunding(step.outcome);
      return {
        state: step.outcome,
        decidedAtMs: clock.businessNowMs,
        // A refunding decision: the object reads the transfer's returns until the money comes.
        nextCheckAtMs: refunding ? clock.nowMs : null,
        refundWatchUntilMs: refunding ? clock.nowMs + refundWatchMs : null,
        checksMade: 0,
        audit: { actor: step.actor, action: "contestation_decided", note: step.note },
      };
    }
  }
}
