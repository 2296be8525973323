// What comes after an occurrence of a recurring transfer, prepared where it runs or is canceled
// on its own (or, for a first occurrence the night rules refuse, where the recurrence is
// requested): the next occurrence (its date, a fresh id and the slot that id spreads it to) and
// the evening retry a run short of funds gets. recurring_after_run takes or leaves each, under
// the recurrence's lock, by what the run found; a retry's own run prepares nothing.
import { occurrenceDate } from "../saga/recurrence.ts";
import { runWindowEndsAtMs, scheduledRunAtMs } from "../saga/schedule.ts";
import type { SagaRecord, SagaRecurrence } from "./saga-record.ts";

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

/** The dates a recurrence's occurrences are counted by (a SagaRecurrence, or a recurrence being created). */
type RecurrenceDates = Pick<SagaRecurrence, "firstDate" | "frequency" | "count">;

/** Occurrence `occurrence`, opened under a fresh id at its early slot; null past the last. */
function occurrenceSlot(recurrence: RecurrenceDates, occurrence: number, newId: () => string): RecurringFollowUps["next"] {
  if (occurrence > recurrence.count) return null;
  const date = occurrenceDate(recurrence.firstDate, recurrence.frequency, occurrence);
  const id = newId();
  return { occurrence, date, id, run_at_ms: scheduledRunAtMs(date, id, "early") };
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
  const next = occurrenceSlot(recurrence, recurrence.occurrence + 1, newId);
  // A run so late that the day's retry window has closed (after an outage) gets no retry.
  let retry: OccurrenceSlot | null = null;
  if (runAtMs !== null && runAtMs < runWindowEndsAtMs(saga.scheduledFor, "recurring_retry")) {
    const id = newId();
    retry = { id, run_at_ms: scheduledRunAtMs(saga.scheduledFor, id, "recurring_retry") };
  }
  return { deadline_ms: deadlineMs, next, retry };
}

/**
 * What follows a first occurrence refused when the recurrence is requested (the night rules of a
 * request inside the night window): the second occurrence, and no retry (a refusal is no
 * shortage of funds).
 */
export function followUpsOfRefusedFirst(
  recurrence: RecurrenceDates,
  deadlineMs: number,
  newId: () => string = () => crypto.randomUUID(),
): RecurringFollowUps {
  return { deadline_ms: deadlineMs, next: occurrenceSlot(recurrence, 2, newId), retry: null };
}
