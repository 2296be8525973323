// Runs the pure saga against its ports: decide, call the provider, persist the decided change
// guarded by the state it was decided from. Step protocol: the intent is the persisted state
// itself (funds_reserved means "send"), the provider call is idempotent by transfer id, and
// the result is persisted after; a crash between any two repeats the step safely.

import type { RuleSettings } from "../config/rule-settings.ts";
import type { Queryable } from "../db/queryable.ts";
import type { PixOrder, PixProvider, ProviderAlert, ProviderEvidence, SendOutcome, StatusOutcome } from "../provider/port.ts";
import type { SendSlot } from "../provider/send-gate/send-slot.ts";
import { scheduledRunAtMs } from "../saga/schedule.ts";
import { isInFlight } from "../saga/states.ts";
import type { SagaTimings } from "../saga/timings.ts";
import { type SagaChange, type SagaView, type SendKind, transition } from "../saga/transition.ts";
import { followUpsOf } from "../transfers/recurring-follow-ups.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";
import { runScheduledTransfer } from "../transfers/scheduled.ts";
import { applyChange, type ProviderCallRecord } from "../transfers/store.ts";
import { brCodeCheckOf } from "./pinned-br-code.ts";

export interface SagaPorts {
  db: Queryable;
  provider: PixProvider;
  timings: SagaTimings;
  /** The Pix rules' defaults, for a scheduled transfer's run on its day. */
  rules: RuleSettings;
  /** The wall clock: the saga's own timings (backoff, deadline, grace). */
  nowMs: () => number;
  /**
   * Business time (src/clock/): a scheduled run's day and slot, and the rules it runs under.
   * Absent, business time is `nowMs` (no test clock: the runner's own tests fix both at once).
   */
  businessNowMs?: () => Promise<number>;
  /**
   * How far the test clock moved since a recorded wall instant (src/clock/): a completed
   * transfer's returns watch runs 7 days of business time. Absent: it never moved.
   */
  clockAdvancedSinceMs?: (sinceMs: number) => Promise<number>;
  /** What a person must act on, seen in a provider answer (src/alerts/: misconfiguration, an order mismatch). */
  alert?: (saga: SagaRecord, alert: ProviderAlert, call: ProviderCallRecord) => void;
  /** Runs a send inside the provider's concurrency limit (src/provider/send-gate/slot.ts). */
  sendSlot?: SendSlot;
  /** Transfers a step opened beside its own (a recurrence's next occurrence, an evening retry): their objects must wake. */
  opened?: (transferIds: string[]) => void;
}

/** A send that timed out may still be running at the provider: its slot comes back a bounded time later. */
const stillInFlight = (outcome: SendOutcome): boolean => outcome.kind === "unknown" && outcome.why === "timeout";

function sendThroughGate(ports: SagaPorts, saga: SagaRecord): Promise<SendOutcome> {
  const send = () => ports.provider.send(orderOf(saga));
  return ports.sendSlot ? ports.sendSlot(send, stillInFlight) : send();
}

/** Bound on steps in one run: a healthy saga needs at most two (send, then settle/compensate). */
export const stepsPerRunMax = 4;

export function viewOf(saga: SagaRecord): SagaView {
  const schedule =
    saga.state === "scheduled" && saga.scheduledFor !== null && saga.nextCheckAtMs !== null
      ? {
          runAtMs: saga.nextCheckAtMs,
          shortRuns: saga.shortRuns,
          eveningRunAtMs: scheduledRunAtMs(saga.scheduledFor, saga.id, "evening"),
          recurring: saga.recurrence !== undefined,
        }
      : null;
  return {
    state: saga.state,
    deadlineAtMs: saga.deadlineAtMs,
    checksMade: saga.checksMade,
    lastSentAtMs: saga.lastSentAtMs,
    schedule,
    pinnedBrCode: saga.brCode !== undefined,
  };
}

export function orderOf(saga: SagaRecord): PixOrder {
  return {
    idempotencyKey: saga.id,
    amountCents: saga.amountCents,
    pixKey: saga.pixKey,
    pixKeyType: saga.pixKeyType,
    description: saga.description,
    ...(saga.brCode === undefined ? {} : { brCode: saga.brCode }),
  };
}

function callRecord(kind: "send" | "status", outcome: SendOutcome | StatusOutcome): ProviderCallRecord {
  const evidence: ProviderEvidence = outcome.evidence;
  const label =
    outcome.kind === "rejected" ? `rejected:${outcome.code}` : outcome.kind === "unknown" ? `unknown:${outcome.why}` : outcome.kind;
  return {
    kind,
    outcome: label,
    httpStatus: evidence.httpStatus,
    detail: { body: evidence.body, error: evidence.error, ...(evidence.earlier === undefined ? {} : { earlier: evidence.earlier }) },
    durationMs: evidence.durationMs,
  };
}

/**
 * Persists a decided change; a state mismatch means another step got there first: adopt it.
 * `evidence` is the history row's, when no provider call of its own explains the change.
 */
async function persist(
  ports: SagaPorts,
  saga: SagaRecord,
  change: SagaChange,
  call: ProviderCallRecord | null,
  stepEvidence: Record<string, unknown> | null = null,
): Promise<SagaRecord> {
  const evidence = call ? { provider_call: call.kind, outcome: call.outcome, http_status: call.httpStatus } : stepEvidence;
  const result = await applyChange(ports.db, saga.id, saga.state, { ...change, sent: call?.kind === "send", evidence }, call);
  if (result.outcome === "not_found") throw new Error(`saga ${saga.id} vanished from the database`);
  return result.saga;
}

/**
 * One decision and its effects. Returns the saga as persisted afterwards. Every command the core
 * can decide has its case: a new one fails to compile here until the runtime knows what to do.
 */
async function step(ports: SagaPorts, saga: SagaRecord, nowMs: number): Promise<SagaRecord> {
  const decided = transition(viewOf(saga), { type: "due" }, nowMs, ports.timings);
  const command = decided.commands[0];
  if (!command) return saga;
  switch (command.type) {
    case "persist":
      return persist(ports, saga, command.change, null);
    case "run_scheduled":
      return runScheduled(ports, saga, command.retryAtMs, nowMs);
    case "send_to_provider":
      return send(ports, saga);
    case "resend_to_provider":
      return send(ports, saga, "resend");
    case "check_br_code":
      return checkBrCode(ports, saga, command.before);
    case "check_provider_status":
      return checkStatus(ports, saga);
    case "check_after_refusal":
      return checkAfterRefusal(ports, saga, command.code);
    default:
      return unknownCommand(command);
  }
}

/** Only reached if the core decides a command its type does not list. */
function unknownCommand(command: never): never {
  throw new Error(`saga command not handled: ${JSON.stringify(command)}`);
}

/** Asks the provider where the payment is; the answer is persisted with the call that got it. */
async function checkStatus(ports: SagaPorts, saga: SagaRecord): Promise<SagaRecord> {
  const outcome = await ports.provider.status(orderOf(saga));
  const call = noticed(ports, saga, callRecord("status", outcome), outcome);
  const answered = transition(viewOf(saga), { type: "status_answered", outcome }, ports.nowMs(), ports.timings);
  const write = answered.commands.find((c) => c.type === "persist");
  const persisted = write ? await persist(ports, saga, write.change, call) : saga;
  // After a not-found past the grace window: the check is recorded, then the same id is sent again.
  const then = answered.commands.find((c) => c.type === "resend_to_provider" || c.type === "check_br_code");
  if (then?.type === "resend_to_provider") return send(ports, persisted, "resend");
  if (then?.type === "check_br_code") return checkBrCode(ports, persisted, then.before);
  return persisted;
}

/**
 * Sends with the transfer id and persists the answer: the first send from funds_reserved, or a
 * resend after a not-found (the check that decided it is already recorded).
 */
async function send(ports: SagaPorts, saga: SagaRecord, kind: SendKind = "send"): Promise<SagaRecord> {
  const outcome = await sendThroughGate(ports, saga);
  const call = noticed(ports, saga, callRecord("send", outcome), outcome);
  const type = kind === "send" ? "send_answered" : "resend_answered";
  const answered = transition(viewOf(saga), { type, outcome }, ports.nowMs(), ports.timings);
  const write = answered.commands.find((c) => c.type === "persist");
  const persisted = write ? await persist(ports, saga, write.change, call) : saga;
  // A refused resend is recorded, then the status is read once more before anything is released.
  const recheck = answered.commands.find((c) => c.type === "check_after_refusal");
  return recheck ? checkAfterRefusal(ports, persisted, recheck.code) : persisted;
}

/**
 * Resolves the transfer's dynamic BR Code again and lets the core judge it before `before`: an
 * unchanged charge is sent at once; a changed one, or no answer, is persisted with what the
 * provider said. Outside any transaction, like every provider call.
 */
async function checkBrCode(ports: SagaPorts, saga: SagaRecord, before: SendKind): Promise<SagaRecord> {
  if (saga.brCode === undefined) throw new Error(`saga ${saga.id} has no BR Code to check`);
  const resolution = await ports.provider.resolveBrCode(saga.brCode);
  const outcome = brCodeCheckOf(saga, resolution);
  const decided = transition(viewOf(saga), { type: "br_code_checked", before, outcome }, ports.nowMs(), ports.timings);
  const write = decided.commands.find((c) => c.type === "persist");
  if (write) {
    const evidence = { br_code_check: outcome, http_status: resolution.evidence.httpStatus, answer: resolution.evidence.body };
    return persist(ports, saga, write.change, null, evidence);
  }
  const next = decided.commands[0];
  if (next?.type === "send_to_provider") return send(ports, saga);
  if (next?.type === "resend_to_provider") return send(ports, saga, "resend");
  return saga;
}

/**
 * A scheduled transfer's day came: rules and hold now, at the business instant of the run. A
 * recurring occurrence opens what comes after it in the same transaction.
 */
async function runScheduled(ports: SagaPorts, saga: SagaRecord, retryAtMs: number | null, businessNowMs: number): Promise<SagaRecord> {
  const followUps = followUpsOf(saga, businessNowMs, ports.timings.deadlineMs);
  const result = await runScheduledTransfer(ports.db, saga.id, businessNowMs, ports.rules, retryAtMs, followUps);
  if (result.outcome === "not_found") throw new Error(`saga ${saga.id} vanished from the database`);
  if (result.opened.length > 0) ports.opened?.(result.opened);
  return result.saga;
}

/** The resend was refused (already recorded): one more status read decides whether to release. */
async function checkAfterRefusal(ports: SagaPorts, saga: SagaRecord, code: string): Promise<SagaRecord> {
  const outcome = await ports.provider.status(orderOf(saga));
  const call = noticed(ports, saga, callRecord("status", outcome), outcome);
  const answered = transition(viewOf(saga), { type: "refusal_checked", code, outcome }, ports.nowMs(), ports.timings);
  const write = answered.commands.find((c) => c.type === "persist");
  return write ? persist(ports, saga, write.change, call) : saga;
}

/** Raises the outcome's alert, if any, beside the step: an alert never changes the saga. */
function noticed(ports: SagaPorts, saga: SagaRecord, call: ProviderCallRecord, outcome: SendOutcome | StatusOutcome): ProviderCallRecord {
  if ((outcome.kind === "unknown" || outcome.kind === "rejected") && outcome.alert !== undefined) ports.alert?.(saga, outcome.alert, call);
  return call;
}

/**
 * Why a saga runs: a poke (a webhook, the sweeper, an operator) asks for a check now; an alarm
 * takes a step only when one is due.
 */
export type RunCause = "poke" | "alarm";

/**
 * The instant a step of `saga` is decided at. A scheduled transfer's recorded run (its slot, or
 * its evening retry) is a business instant, a calendar rule; every later check is the saga's own
 * timing, on the wall clock.
 */
export function stepNowMs(ports: SagaPorts, saga: SagaRecord): Promise<number> {
  if (saga.state === "scheduled" && ports.businessNowMs !== undefined) return ports.businessNowMs();
  return Promise.resolve(ports.nowMs());
}

/** Whether a run would take a step at `nowMs` (stepNowMs): the saga is in flight, and poked or its check is due. */
export function isStepDue(saga: SagaRecord, cause: RunCause, nowMs: number): boolean {
  if (!isInFlight(saga.state)) return false;
  return cause === "poke" || saga.nextCheckAtMs === null || saga.nextCheckAtMs <= nowMs;
}

/**
 * Advances while a step is due: always once when poked (a webhook or the sweeper asked for a
 * check now), then while the persisted next check is already due (e.g. right after the hold).
 */
export async function advance(ports: SagaPorts, start: SagaRecord, { cause }: { cause: RunCause }): Promise<SagaRecord> {
  let saga = start;
  for (let n = 0; n < stepsPerRunMax; n++) {
    // A poke answers for the first step only; after it the run goes on as an alarm would.
    const nowMs = await stepNowMs(ports, saga);
    if (!isStepDue(saga, n === 0 ? cause : "alarm", nowMs)) return saga;
    const before = saga;
    saga = await step(ports, saga, nowMs);
    // A recorded check that changed nothing but the schedule ends this run.
    if (saga.state === before.state && saga.checksMade !== before.checksMade) return saga;
  }
  return saga;
}

/**
 * When the object should wake next, on the wall clock its alarm keeps: the persisted next check,
 * or never for settled sagas. A scheduled run's check is a business instant: its wall instant is
 * that less `businessOffsetMs`, the offset now. The offset only grows, so an advance can make
 * such an alarm late, never early: the advance's sweep pokes the object, which re-arms it.
 */
export function nextWakeAtMs(saga: SagaRecord, nowMs: number, timings: SagaTimings, businessOffsetMs = 0): number | null {
  if (!isInFlight(saga.state)) return null;
  if (saga.nextCheckAtMs === null) return nowMs + timings.firstCheckDelayMs;
  return saga.state === "scheduled" ? saga.nextCheckAtMs - businessOffsetMs : saga.nextCheckAtMs;
}
