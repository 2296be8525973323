// What an occurrence prepares for after it: the next occurrence always, an evening retry only
// for a run decided (in business time) before its day's retry window closes, and nothing
// clock-dependent for a cancel.
import { describe, expect, it } from "vitest";
import { occurrenceDate } from "../../src/saga/recurrence.ts";
import { runWindowEndsAtMs, saoPauloMidnightMs, scheduledRunAtMs } from "../../src/saga/schedule.ts";
import { followUpsOf, followUpsOfRefusedFirst } from "../../src/transfers/recurring-follow-ups.ts";
import { type SagaRecord, sagaRecordSchema } from "../../src/transfers/saga-record.ts";

const hourMs = 3_600_000;
const deadlineMs = 60_000;
const date = "2027-01-31";
const recurrenceId = "6f1c1f8e-3c4e-4d43-9d55-6c1a2f4b7e01";

function occurrence(number: number, retryOf: string | null = null): SagaRecord {
  return sagaRecordSchema.parse({
    id: crypto.randomUUID(),
    account_id: "acct-follow-ups",
    amount_cents: 2_500,
    pix_key: "10000000108",
    pix_key_type: "cpf",
    description: null,
    state: "scheduled",
    end_to_end_id: null,
    checks_made: 0,
    send_attempts: 0,
    last_sent_at_ms: null,
    next_check_at_ms: scheduledRunAtMs(date, "x", "early"),
    deadline_at_ms: 0,
    created_at_ms: 0,
    returned_cents: 0,
    scheduled_for: occurrenceDate(date, "monthly", number),
    short_runs: 0,
    completed_at_ms: null,
    return_ids: [],
    recurrence: {
      recurring_transfer_id: recurrenceId,
      frequency: "monthly",
      first_date: date,
      count: 3,
      occurrence: number,
      retry_of: retryOf,
    },
  });
}

let ids = 0;
const newId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`;

describe("an occurrence's follow-ups", () => {
  it("a morning run prepares the next occurrence on its date and a retry in 18:00-20:00 of the same day", () => {
    const followUps = followUpsOf(occurrence(1), saoPauloMidnightMs(date) + 3 * hourMs, deadlineMs, newId);
    expect(followUps?.next).toMatchObject({ occurrence: 2, date: "2027-02-28" });
    expect(followUps?.next?.run_at_ms).toBe(scheduledRunAtMs("2027-02-28", followUps?.next?.id ?? "", "early"));
    const retryAtMs = followUps?.retry?.run_at_ms ?? 0;
    expect(retryAtMs).toBeGreaterThanOrEqual(saoPauloMidnightMs(date) + 18 * hourMs);
    expect(retryAtMs).toBeLessThan(saoPauloMidnightMs(date) + 20 * hourMs);
  });

  it("a run decided once the day's retry window has closed prepares no retry, the next occurrence still", () => {
    const followUps = followUpsOf(occurrence(2), runWindowEndsAtMs("2027-02-28", "recurring_retry"), deadlineMs, newId);
    expect(followUps?.retry).toBeNull();
    expect(followUps?.next).toMatchObject({ occurrence: 3, date: "2027-03-31" });
  });

  it("a cancel prepares the next occurrence and no retry, whatever the clock says", () => {
    const followUps = followUpsOf(occurrence(1), null, deadlineMs, newId);
    expect(followUps?.retry).toBeNull();
    expect(followUps?.next).toMatchObject({ occurrence: 2, date: "2027-02-28" });
  });

  it("the last occurrence prepares no next; a retry prepares nothing", () => {
    expect(followUpsOf(occurrence(3), saoPauloMidnightMs("2027-03-31"), deadlineMs, newId)?.next).toBeNull();
    expect(followUpsOf(occurrence(1, newId()), saoPauloMidnightMs(date), deadlineMs, newId)).toBeNull();
  });
});

describe("a first occurrence refused when the recurrence is requested", () => {
  it("prepares the second occurrence at its early slot and no retry", () => {
    const followUps = followUpsOfRefusedFirst({ firstDate: date, frequency: "monthly", count: 3 }, deadlineMs, newId);
    expect(followUps).toMatchObject({ deadline_ms: deadlineMs, retry: null, next: { occurrence: 2, date: "2027-02-28" } });
    expect(followUps.next?.run_at_ms).toBe(scheduledRunAtMs("2027-02-28", followUps.next?.id ?? "", "early"));
  });
});
