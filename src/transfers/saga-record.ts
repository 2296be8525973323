// The saga object's view of its transfer row (transfer_saga_json in SQL), parsed strictly:
// the row comes from our own database, but a malformed one must stop the saga, not steer it.
import { z } from "zod";
import { pixKeyTypes } from "../lib/ids.ts";
import { recurrenceFrequencies } from "../saga/recurrence.ts";
import { transferStates } from "../saga/states.ts";

/** What an occurrence of a recurring transfer knows of its recurrence, to open what comes after it. */
const recurrenceSchema = z
  .object({
    recurring_transfer_id: z.string().uuid(),
    frequency: z.enum(recurrenceFrequencies),
    first_date: z.iso.date(),
    count: z.number().int().positive(),
    occurrence: z.number().int().positive(),
    /** The occurrence this transfer is the evening retry of; null for the occurrence itself. */
    retry_of: z.string().uuid().nullable(),
  })
  .transform((r) => ({
    recurringTransferId: r.recurring_transfer_id,
    frequency: r.frequency,
    firstDate: r.first_date,
    count: r.count,
    occurrence: r.occurrence,
    retryOf: r.retry_of,
  }));

export type SagaRecurrence = z.output<typeof recurrenceSchema>;

export const sagaRecordSchema = z
  .object({
    id: z.string().uuid(),
    account_id: z.string(),
    amount_cents: z.number().int().positive(),
    pix_key: z.string(),
    pix_key_type: z.enum(pixKeyTypes),
    description: z.string().nullable(),
    state: z.enum(transferStates),
    end_to_end_id: z.string().nullable(),
    checks_made: z.number().int().nonnegative(),
    send_attempts: z.number().int().nonnegative(),
    last_sent_at_ms: z.number().int().nullable(),
    next_check_at_ms: z.number().int().nullable(),
    deadline_at_ms: z.number().int(),
    created_at_ms: z.number().int(),
    returned_cents: z.number().int().nonnegative(),
    scheduled_for: z.iso.date().nullable(),
    short_runs: z.number().int().nonnegative(),
    completed_at_ms: z.number().int().nullable(),
    return_ids: z.array(z.string()),
    /** A dynamic BR Code to pay as the code; null otherwise (and absent in records cached before it existed). */
    br_code: z.string().nullable().optional(),
    /** Null for a transfer of no recurrence (and absent in records cached before recurrences existed). */
    recurrence: recurrenceSchema.nullable().optional(),
  })
  .transform((r) => ({
    id: r.id,
    accountId: r.account_id,
    amountCents: r.amount_cents,
    pixKey: r.pix_key,
    pixKeyType: r.pix_key_type,
    description: r.description,
    state: r.state,
    endToEndId: r.end_to_end_id,
    checksMade: r.checks_made,
    sendAttempts: r.send_attempts,
    lastSentAtMs: r.last_sent_at_ms,
    nextCheckAtMs: r.next_check_at_ms,
    deadlineAtMs: r.deadline_at_ms,
    createdAtMs: r.created_at_ms,
    returnedCents: r.returned_cents,
    scheduledFor: r.scheduled_for,
    shortRuns: r.short_runs,
    completedAtMs: r.completed_at_ms,
    returnIds: r.return_ids,
    ...(typeof r.br_code === "string" ? { brCode: r.br_code } : {}),
    ...(r.recurrence ? { recurrence: r.recurrence } : {}),
  }));

export type SagaRecord = z.output<typeof sagaRecordSchema>;
