// Delivers a transfer's due events in order: the earliest undelivered one, and only when it is
// acknowledged (2xx) the next. Run by the transfer's own object (the sequencer), outside any
// database transaction. Answers when to run again: null when nothing is pending (or the head
// is parked, which only an operator can unblock).
import type { Queryable } from "../db/queryable.ts";
import { afterFailedAttempt } from "./retry.ts";
import { type Fetcher, sendEvent } from "./send.ts";
import { firstUndelivered, recordAttempt } from "./store.ts";

/** Events one wake delivers at most; more wait for the next wake, armed at once. */
export const eventsPerWakeMax = 20;

export interface PumpPorts {
  db: Queryable;
  url: string;
  secret: string;
  retryFirstMs: number;
  fetcher: Fetcher;
  nowMs: () => number;
  timeoutMs?: number;
}

export interface PumpResult {
  delivered: number;
  nextDueAtMs: number | null;
  /** The event that was parked by this run, if any: someone must be told. */
  parkedEventId: string | null;
}

export async function pumpEvents(ports: PumpPorts, transferId: string): Promise<PumpResult> {
  let delivered = 0;
  for (let round = 0; round < eventsPerWakeMax; round += 1) {
    const event = await firstUndelivered(ports.db, transferId);
    if (event === null || event.parked) return { delivered, nextDueAtMs: null, parkedEventId: null };
    const dueAtMs = event.nextAttemptAtMs ?? ports.nowMs();
    if (dueAtMs > ports.nowMs()) return { delivered, nextDueAtMs: dueAtMs, parkedEventId: null };
    const attempt = await sendEvent(event, ports);
    const decision = attempt.delivered
      ? ({ outcome: "delivered" } as const)
      : afterFailedAttempt(event.attempts + 1, ports.retryFirstMs, event.occurredAtMs, ports.nowMs());
    const moved = await recordAttempt(ports.db, {
      eventId: event.id,
      attemptsBefore: event.attempts,
      ...attempt,
      outcome: decision.outcome,
      nextAttemptAtMs: decision.outcome === "retry" ? decision.nextAttemptAtMs : null,
    });
    // Another deliverer moved it meanwhile: read again rather than act on a stale row.
    if (moved === "already_moved") continue;
    if (decision.outcome === "delivered") delivered += 1;
    else if (decision.outcome === "parked") return { delivered, nextDueAtMs: null, parkedEventId: event.id };
    else return { delivered, nextDueAtMs: decision.nextAttemptAtMs, parkedEventId: null };
  }
  return { delivered, nextDueAtMs: ports.nowMs(), parkedEventId: null };
}
