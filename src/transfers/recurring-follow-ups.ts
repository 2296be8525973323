// What comes after an occurrence of a recurring transfer, prepared where it runs or is canceled
// on its own: the next occurrence (its date, a fresh id and the slot that id spreads it to) and
// the evening retry a run short of funds gets. recurring_after_run takes or leaves each, under
// the recurrence's lock, by what the run found; a retry's own run prepares nothing.
import { occurrenceDate } from "../saga/recurrence.ts";
import { runWindowEndsAtMs, scheduledRunAtMs } from "../saga/schedule.ts";
import type { SagaRecord } from "./saga-record.ts";

export interface OccurrenceSlot {
  id: string;
  run_at_ms: number;
}

/** Named as recurring_after_run reads them. */
export interface RecurringFollowUps {
  /** The saga deadline a new transfer is opened with (it starts again when it runs). */
  deadline_ms: number;
  next: (OccurrenceSlot & { occurrence: number; date: string }) | null;
  retry: OccurrenceSlot | null;
}

/**
 * Null for a transfer of no recurrence, and for a retry (nothing comes after it). `runAtMs` is
 * the business instant of the occurrence's run; null for its cancel, which gets no retry and so
 * decides nothing by the clock.
 */
export function followUpsOf(
  saga: SagaRecord,
  runAtMs: number | null,
  deadlineMs: number,
  newId: () => string = () => crypto.randomUUID(),
): RecurringFollowUps | null {
  const recurrence = saga.recurrence;
  if (recurrence === undefined || recurrence.retryOf !== null || saga.scheduledFor === null) return null;
  const nextOccurrence = recurrence.occurrence + 1;
  let next: RecurringFollowUps["next"] = null;
  if (nextOccurrence <= recurrence.count) {
    const date = occurrenceDate(recurrence.firstDate, recurrence.frequency, nextOccurrence);
    const id = newId();
    next = { occurrence: nextOccurrence, date, id, run_at_ms: scheduledRunAtMs(date, id, "early") };
  }
  // A run so late that the day's retry window has closed (after an outage) gets no retry.
  let retry: OccurrenceSlot | null = null;
  if (runAtMs !== null && runAtMs < runWindowEndsAtMs(saga.scheduledFor, "recurring_retry")) {
    const id = newId();
    retry = { id, run_at_ms: scheduledRunAtMs(saga.scheduledFor, id, "recurring_retry") };
  }
  return { deadline_ms: deadlineMs, next, retry };
}
