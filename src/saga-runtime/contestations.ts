// Drives a transfer's contestations from its object (CONTRACT §2 "Contestations"): hand an open
// one to a provider that takes them, ask for the decision with the saga's backoff, and after a
// decision in the customer's favour read the transfer's returns until the refund comes (the
// money only ever arrives as a `fraud` return, credited once by transfer_return_apply). Each
// provider call happens outside any transaction; its answer is then written, guarded by the
// state it was decided from, so a crash between the two repeats the call, which the provider
// answers as before (a repeat for the same transfer answers the same contestation). Past its
// deadline (business time) a contestation without a decision raises one ops alert.
import { contestationRetryAtMs, isActive, isRefunding, nextContestationStep, refundWatchMs } from "../saga/contestations.ts";
import {
  applyContestation,
  type ContestationChange,
  type ContestationRecord,
  contestationRecord,
  isWaiting,
  workingContestations,
} from "../transfers/contestations.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";
import type { RunCause, SagaPorts } from "./advance.ts";
import { watchReturns } from "./returns.ts";

export interface ContestationPorts extends SagaPorts {
  /** Business time (the test clock's, with the sandbox on): deadlines and the contract's times. */
  businessNowMs: () => Promise<number>;
  /** The transfer as the database has it now (returns may have come since the object's cache). */
  loadSaga: () => Promise<SagaRecord | null>;
  /** Raised once per contestation past its deadline without a decision. */
  alertDeadline: (record: ContestationRecord) => void;
}

export interface ContestationRun {
  /** A contestation changed, or a return was applied: events are due. */
  changed: boolean;
  /** When the object should wake for its contestations; null: nothing to wait for. */
  wakeAtMs: number | null;
}

export async function driveContestations(ports: ContestationPorts, transferId: string, cause: RunCause): Promise<ContestationRun> {
  const working = await workingContestations(ports.db, transferId);
  if (working.length === 0) return { changed: false, wakeAtMs: null };
  // Read once per run (a database read with the sandbox on): business time is then the wall
  // clock plus this offset. An advance during the run is the next run's (its sweep pokes us).
  const offsetMs = (await ports.businessNowMs()) - ports.nowMs();
  const run: RunClock = { ...ports, runBusinessNowMs: () => ports.nowMs() + offsetMs };
  let changed = false;
  for (const record of working) {
    if (await alertIfPastDeadline(run, record)) changed = true;
    const due = cause === "poke" || (record.nextCheckAtMs !== null && record.nextCheckAtMs <= ports.nowMs());
    if (due && (await step(run, record))) changed = true;
  }
  return { changed, wakeAtMs: await nextWakeAtMs(run, transferId, offsetMs) };
}

/** The ports of one run, with business time (deadlines, the contract's times) read once. */
type RunClock = ContestationPorts & { runBusinessNowMs: () => number };

async function alertIfPastDeadline(ports: RunClock, record: ContestationRecord): Promise<boolean> {
  if (!isActive(record.state) || record.deadlineAlerted || record.deadlineAtMs > ports.runBusinessNowMs()) return false;
  const marked = await applyContestation(ports.db, record.id, record.state, { deadlineAlertedAtMs: ports.runBusinessNowMs() });
  // Marked first, alerted after: a lost alert is cheaper than one repeated every sweep, and the
  // console's queue marks it past its deadline whatever became of the alert.
  if (marked.outcome === "applied") ports.alertDeadline(record);
  return false;
}

/** One step of one contestation; true when it changed (its event is due). */
async function step(ports: RunClock, record: ContestationRecord): Promise<boolean> {
  const desk = ports.provider.contestations;
  const nowMs = ports.nowMs();
  const command = nextContestationStep(record, desk !== undefined, nowMs);
  const retry: ContestationChange = {
    nextCheckAtMs: contestationRetryAtMs(record.checksMade, nowMs, ports.timings),
    checksMade: record.checksMade + 1,
  };
  switch (command.type) {
    case "forward": {
      if (desk === undefined) return false;
      const taken = await desk.contest({ idempotencyKey: record.transferId, reason: record.reason, details: record.details });
      if (taken.kind === "unknown") return applied(await applyContestation(ports.db, record.id, "open", retry));
      const change: ContestationChange = {
        state: "submitted",
        pspRef: taken.pspRef,
        submittedAtMs: ports.runBusinessNowMs(),
        nextCheckAtMs: contestationRetryAtMs(0, ports.nowMs(), ports.timings),
        checksMade: 0,
      };
      return applied(await applyContestation(ports.db, record.id, "open", change));
    }
    case "ask_decision": {
      if (desk === undefined) return false;
      const answer = await desk.decision(command.pspRef);
      if (answer.kind !== "decided") return applied(await applyContestation(ports.db, record.id, "submitted", retry));
      const refunding = isRefunding(answer.outcome);
      const decided = await applyContestation(ports.db, record.id, "submitted", {
        state: answer.outcome,
        decidedAtMs: ports.runBusinessNowMs(),
        nextCheckAtMs: refunding ? ports.nowMs() : null,
        refundWatchUntilMs: refunding ? ports.nowMs() + refundWatchMs : null,
        checksMade: 0,
      });
      if (decided.outcome !== "applied") return false;
      // The decision is the moment the refund may be there: read the returns now.
      const after = refunding ? await contestationRecord(ports.db, record.id) : null;
      if (after !== null) await checkRefund(ports, after);
      return true;
    }
    case "check_refund":
      return checkRefund(ports, record);
    case "none":
      // Nothing to ask (a provider without a contestation API, a final state): stop waking for it.
      if (record.nextCheckAtMs === null) return false;
      return applied(await applyContestation(ports.db, record.id, record.state, { nextCheckAtMs: null, refundWatchUntilMs: null }));
  }
}

/**
 * Reads the transfer's returns through the saga's returns path, which credits each new one
 * once; stops waiting once a `fraud` return since the contestation was made is there. True when
 * a return was applied.
 */
async function checkRefund(ports: RunClock, record: ContestationRecord): Promise<boolean> {
  const saga = await ports.loadSaga();
  if (saga === null) return false;
  const watch = await watchReturns(ports, saga, record.refundWatchUntilMs);
  const returned = watch.checked && watch.applied.some((a) => a.result === "applied");
  const now = await contestationRecord(ports.db, record.id);
  if (now === null) return returned;
  const done = now.returnedCents > 0 || now.refundWatchUntilMs === null || ports.nowMs() >= now.refundWatchUntilMs;
  const change: ContestationChange = done
    ? { nextCheckAtMs: null, refundWatchUntilMs: null }
    : { nextCheckAtMs: contestationRetryAtMs(now.checksMade, ports.nowMs(), ports.timings), checksMade: now.checksMade + 1 };
  await applyContestation(ports.db, now.id, now.state, change);
  return returned;
}

const applied = (result: { outcome: string }): boolean => result.outcome === "applied";

/**
 * The earliest of the contestations' next checks and of their deadlines not yet alerted, the
 * latter turned into wall-clock time under the test clock's current offset (it only grows, so
 * such a wake only comes earlier: a later advance's sweep pokes the object).
 */
async function nextWakeAtMs(ports: RunClock, transferId: string, offsetMs: number): Promise<number | null> {
  const waiting = (await workingContestations(ports.db, transferId)).filter(isWaiting);
  const wakes = waiting.flatMap((c) => [
    ...(c.nextCheckAtMs === null ? [] : [c.nextCheckAtMs]),
    ...(isActive(c.state) && !c.deadlineAlerted ? [c.deadlineAtMs - offsetMs] : []),
  ]);
  return wakes.length === 0 ? null : Math.min(...wakes);
}
