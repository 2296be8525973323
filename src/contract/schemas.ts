// The response bodies of the client API (CONTRACT §2, §3), once, as zod schemas: the OpenAPI
// document is generated from them and the API tests validate real responses against them. The
// operators' (§5) are in ops-schemas.ts, the outbound event (§6) in event-schemas.ts.
// Request schemas live beside their routes (e.g. createTransferBody in src/http/transfer-requests.ts).
// Objects are strict: a field the contract does not name is a test failure, not a surprise.
import { z } from "zod";
import { accountIdPattern, pixKeyTypes } from "../lib/ids.ts";
import { contestationReasons, contestationStates, detailsLengthMax } from "../saga/contestations.ts";
import { occurrenceCountMax, occurrenceCountMin, recurrenceFrequencies, recurrenceStates } from "../saga/recurrence.ts";
import { returnReasons } from "../saga/returns.ts";
import { failureReasons, transferStates } from "../saga/states.ts";
import { problemSlugs, problemTypeUri } from "../web/problem.ts";

/** RFC 3339 UTC with milliseconds, as every time in the API is rendered. */
export const timestamp = z.iso.datetime().describe("RFC 3339 UTC time");
export const cents = z.number().int().describe("Integer centavos");

export const accountIdSchema = z.string().regex(accountIdPattern).describe("Account id: 1 to 64 of [A-Za-z0-9_-]");

export const transferStateSchema = z.enum(transferStates).describe("Where the transfer's saga is");

export const historyEntrySchema = z.strictObject({
  state: transferStateSchema,
  at: timestamp,
  reason: z.string().nullable(),
});

export const transferReturnSchema = z.strictObject({
  id: z.string().describe("The provider's id of the return (a devolução's id, e.g. D…): each is credited once"),
  amount_cents: cents.positive(),
  reason: z
    .enum(returnReasons)
    .describe("returned_by_recipient (MD06), fraud (MED, FR01), operational_failure (BE08), other (SL02 and any other code)"),
  at: timestamp.describe("When the money came back, as the provider reports it"),
});

export const transferSchema = z.strictObject({
  id: z.uuid().describe("The transfer id; also the provider's idempotency key"),
  state: transferStateSchema,
  amount_cents: cents.positive(),
  pix_key: z.string().describe("The key as stored: normalised (CPF/CNPJ without punctuation, email and EVP lowercased)"),
  pix_key_type: z.enum(pixKeyTypes),
  description: z.string().max(140).nullable(),
  failure_reason: z.enum(failureReasons).nullable(),
  failure_code: z
    .string()
    .nullable()
    .describe(
      "With limit_exceeded: per_transfer, daily, nighttime, night_total, new_device, new_device_daily or velocity; with provider_rejected: the provider's code",
    ),
  end_to_end_id: z.string().nullable().describe("The Pix end-to-end id, once the provider gave one"),
  br_code: z.string().nullable().describe("The Pix Copia e Cola this transfer pays, as given; null for a transfer to a key"),
  merchant_name: z.string().max(25).nullable().describe("A static BR Code's merchant name (field 59); null otherwise"),
  merchant_city: z.string().max(15).nullable().describe("A static BR Code's merchant city (field 60); null otherwise"),
  created_at: timestamp,
  updated_at: timestamp,
  scheduled_for: z.iso
    .date()
    .nullable()
    .describe("The São Paulo day a scheduled transfer runs on (in its early hours); null for a transfer sent at once"),
  recurring_transfer_id: z
    .uuid()
    .nullable()
    .describe("The recurring transfer this one is an occurrence (or an occurrence's evening retry) of; null otherwise"),
  returned_cents: cents
    .nonnegative()
    .describe("The sum of `returns`; never more than amount_cents. Money that came back after `completed`, credited to the balance"),
  returns: z
    .array(transferReturnSchema)
    .describe("Money that came back after the Pix completed (devolução, MED), oldest first; the state stays `completed`"),
  history: z.array(historyEntrySchema).describe("Every transition, in order"),
});

export const brCodePreviewSchema = z.strictObject({
  kind: z.enum(["static", "dynamic"]).describe("static: the code names the key; dynamic: its payload URL was resolved by the provider"),
  pix_key: z.string().describe("The key the payment goes to, normalised as transfers store keys"),
  pix_key_type: z.enum(pixKeyTypes).describe("Inferred from the key's shape for a static code"),
  amount_cents: cents.positive().nullable().describe("The amount the code asks for; null when the payer chooses"),
  merchant_name: z.string().nullable().describe("The merchant (field 59, or the receiver the provider resolved)"),
  merchant_city: z.string().nullable().describe("The merchant's city (field 60, or the provider's)"),
  txid: z.string().nullable().describe("The charge's id (field 62.05, or the provider's); null when the code has none (***)"),
});

export const transferPageSchema = z.strictObject({
  data: z.array(transferSchema).describe("Newest first"),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
});

export const recurringOccurrenceSchema = z.strictObject({
  date: z.iso.date().describe("The São Paulo day this occurrence runs on"),
  transfer_id: z.uuid().describe("The occurrence: an ordinary scheduled transfer"),
  retry_transfer_id: z
    .uuid()
    .nullable()
    .describe("Its retry that evening (18:00 to 20:00), opened when the morning run found too little available; null otherwise"),
});

export const recurringTransferSchema = z.strictObject({
  id: z.uuid().describe("The recurring transfer id"),
  state: z.enum(recurrenceStates).describe("active: occurrences still to run; finished: the last one ran; canceled by its owner"),
  amount_cents: cents.positive().describe("What each occurrence pays"),
  pix_key: z.string().describe("The key as stored: normalised"),
  pix_key_type: z.enum(pixKeyTypes),
  description: z.string().max(140).nullable(),
  frequency: z.enum(recurrenceFrequencies),
  first_date: z.iso.date().describe("The first occurrence's São Paulo day; monthly dates keep its day of the month"),
  count: z.number().int().min(occurrenceCountMin).max(occurrenceCountMax).describe("How many occurrences in all"),
  next_date: z.iso.date().nullable().describe("The date of the occurrence waiting to run; null when none waits"),
  occurrences: z.array(recurringOccurrenceSchema).describe("The occurrences opened so far, in order (the next one opens when one runs)"),
  created_at: timestamp,
});

export const recurringTransferPageSchema = z.strictObject({
  data: z.array(recurringTransferSchema).describe("Newest first"),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
});

export const balanceSchema = z.strictObject({
  account_id: accountIdSchema,
  balance_cents: cents.nonnegative(),
  held_cents: cents.nonnegative().describe("Reserved by transfers in flight"),
  available_cents: cents.nonnegative().describe("balance_cents - held_cents"),
});

export const fieldErrorSchema = z.strictObject({
  field: z.string().describe('Dotted path into the input ("" for the input as a whole), or a header or path parameter name'),
  message: z.string(),
});

export const problemSchema = z.strictObject({
  type: z.enum(problemSlugs.map(problemTypeUri)).describe("What kind of problem: a URI per kind"),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  errors: z.array(fieldErrorSchema).optional().describe("On validation failures: the invalid fields"),
  request_id: z.string().optional().describe("The X-Request-Id of this response, to quote to support"),
});

export const healthSchema = z.strictObject({ status: z.literal("ok") });
export const webhookAckSchema = z.strictObject({ received: z.literal(true) });

const localTime = z
  .string()
  .regex(/^\d{2}:\d{2}$/)
  .describe("HH:MM, São Paulo time");

/** A raised cents limit carries `value_cents`; a later night start (it shortens the night) carries `value`. */
const pendingLimitSchema = z.union([
  z.strictObject({
    limit: z.enum(["per_transfer_cents", "daily_cents", "night_per_transfer_cents", "night_total_cents"]),
    value_cents: cents.nonnegative(),
    effective_at: timestamp,
  }),
  z.strictObject({ limit: z.literal("night_starts_at"), value: localTime, effective_at: timestamp }),
]);

export const limitsSchema = z.strictObject({
  account_id: accountIdSchema,
  per_transfer_cents: cents.positive().describe("The most one transfer may carry"),
  daily_cents: cents.nonnegative().describe("The most the account may send in one São Paulo day"),
  night_per_transfer_cents: cents.positive().describe("The most one transfer may carry at night"),
  night_total_cents: cents.nonnegative().describe("The most all transfers of one night window may carry together"),
  night_starts_at: localTime,
  night_ends_at: localTime,
  day: z.iso.date().describe("Today in São Paulo"),
  used_today_cents: cents.nonnegative(),
  remaining_today_cents: cents.nonnegative(),
  night_evening: z.iso
    .date()
    .describe("The night window now, or tonight's outside it, named by its evening (05:59 belongs to the evening before)"),
  used_tonight_cents: cents.nonnegative(),
  remaining_tonight_cents: cents.nonnegative(),
  pending: z
    .array(pendingLimitSchema)
    .describe("Increases asked for by an operator, not yet in force: an increase waits 24 h, a decrease applies at once"),
  velocity_max_per_10_min: z.number().int().positive().describe("Transfers the account may start in any ten minutes"),
  new_key_review_above_cents: cents
    .nonnegative()
    .describe("A transfer above this to a key the account has not paid more than this (net of returns) waits for review"),
});

/**
 * GET /v1/limits: the limits without the anti-fraud thresholds, which are for operators (a
 * fraudster who could read them would stay just under them).
 */
export const clientLimitsSchema = limitsSchema.omit({ velocity_max_per_10_min: true, new_key_review_above_cents: true });

export const pixKeyOwnerSchema = z.strictObject({
  pix_key: z.string().describe("The key, normalised as a transfer stores it"),
  pix_key_type: z.enum(pixKeyTypes),
  name: z.string().describe("The owner's name, masked: the first name and an initial, e.g. `Maria S***`"),
  document: z.string().describe("The owner's CPF (`***.456.789-**`) or CNPJ (`12.345.678/****-**`), masked"),
  institution: z.strictObject({
    ispb: z
      .string()
      .regex(/^\d{8}$/)
      .describe("The institution's ISPB"),
    name: z.string(),
  }),
});

export const deviceSchema = z.strictObject({
  device_id: z.string().describe("The `device_id` of the device's tokens"),
  name: z.string().describe("The name it was registered with"),
  state: z
    .enum(["pending", "registered"])
    .describe("registered from `effective_at` on; until then its transfers are capped as a new device's"),
  effective_at: timestamp.describe("When the registration takes (or took) effect"),
  last_used_at: timestamp.nullable().describe("When a transfer was last requested from it; null: never"),
});

export const deviceListSchema = z.strictObject({ data: z.array(deviceSchema).describe("Oldest first") });

export const trustedRecipientSchema = z.strictObject({
  pix_key: z.string().describe("The key as stored: normalised, as on a transfer"),
  pix_key_type: z.enum(pixKeyTypes),
  name: z.string().nullable().describe("Your label for the recipient; null when none was given"),
  state: z
    .enum(["pending", "active"])
    .describe("pending until effective_at; active from then: transfers to this key meet no night rule and no new-key review"),
  effective_at: timestamp.describe("When the recipient is trusted: TRUSTED_RECIPIENT_DELAY_MS after it was asked for"),
});

export const trustedRecipientListSchema = z.strictObject({ data: z.array(trustedRecipientSchema) });

export const contestationSchema = z.strictObject({
  id: z.uuid(),
  transfer_id: z.uuid().describe("The contested transfer"),
  state: z
    .enum(contestationStates)
    .describe("open (not yet with the provider), submitted, then accepted, partially_accepted or rejected; canceled by its owner"),
  reason: z.enum(contestationReasons),
  details: z.string().min(1).max(detailsLengthMax),
  created_at: timestamp,
  submitted_at: timestamp.nullable().describe("When the provider took it"),
  decided_at: timestamp.nullable(),
  deadline_at: timestamp.describe("created_at + 11 days: MED 2.0's refund deadline"),
  returned_cents: cents
    .nonnegative()
    .describe("The transfer's `fraud` returns since this contestation was made: the refund comes as a return, never from the contestation"),
});

export const contestationListSchema = z.strictObject({ data: z.array(contestationSchema) });

export type TransferBody = z.infer<typeof transferSchema>;
export type BalanceBody = z.infer<typeof balanceSchema>;
export type DeviceBody = z.infer<typeof deviceSchema>;
export type BrCodePreviewBody = z.infer<typeof brCodePreviewSchema>;
