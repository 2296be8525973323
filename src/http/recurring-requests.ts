// The recurring transfer routes' request schemas (CONTRACT §2, "Recurring transfers"), validated
// once at the edge. A recurrence pays a key: BR Codes are not accepted (an unknown field, 400).
import { z } from "zod";
import { pixKeyTypes } from "../lib/ids.ts";
import { pixKeyInputLengthMax } from "../pix/key.ts";
import { occurrenceCountMax, occurrenceCountMin, recurrenceFrequencies } from "../saga/recurrence.ts";
import { descriptionLengthMax, listTransfersQuery } from "./transfer-requests.ts";

export const createRecurringTransferBody = z.strictObject({
  amount_cents: z.number().int().min(1).describe("What each occurrence pays"),
  pix_key: z.string().min(1).max(pixKeyInputLengthMax),
  pix_key_type: z.enum(pixKeyTypes),
  description: z.string().max(descriptionLengthMax).nullable().optional(),
  first_date: z
    .string()
    .max(10)
    .describe("YYYY-MM-DD: the first occurrence's São Paulo day, as `scheduled_for`: after today, at most 365 days ahead"),
  frequency: z.enum(recurrenceFrequencies).describe("weekly: every 7 days; monthly: the same day of each month, or its last day"),
  count: z.number().int().min(occurrenceCountMin).max(occurrenceCountMax).describe("How many occurrences in all"),
});

/** The same page size and cursor as the transfers' list. */
export const listRecurringTransfersQuery = listTransfersQuery;
