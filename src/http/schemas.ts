// The response bodies of the API (CONTRACT §2, §3, §5), once, as zod schemas: the OpenAPI
// document is generated from them and the API tests validate real responses against them.
// Request schemas live beside their routes (e.g. createTransferBody in ./transfers.ts).
// Objects are strict: a field the contract does not name is a test failure, not a surprise.
import { z } from "zod";
import { returnReasons } from "../saga/returns.ts";
import { failureReasons, transferStates } from "../saga/states.ts";
import { pixKeyTypes } from "./pix-key.ts";
import { problemSlugs, problemTypeUri } from "./problem.ts";

/** RFC 3339 UTC with milliseconds, as every time in the API is rendered. */
const timestamp = z.iso.datetime().describe("RFC 3339 UTC time");
const cents = z.number().int().describe("Integer centavos");

export const accountIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/)
  .describe("Account id: 1 to 64 of [A-Za-z0-9_-]");

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
    .describe("With limit_exceeded: per_transfer, daily or nighttime; with provider_rejected: the provider's code"),
  end_to_end_id: z.string().nullable().describe("The Pix end-to-end id, once the provider gave one"),
  created_at: timestamp,
  updated_at: timestamp,
  scheduled_for: z.iso
    .date()
    .nullable()
    .describe("The São Paulo day a scheduled transfer runs on (in its early hours); null for a transfer sent at once"),
  returned_cents: cents
    .nonnegative()
    .describe("The sum of `returns`; never more than amount_cents. Money that came back after `completed`, credited to the balance"),
  returns: z
    .array(transferReturnSchema)
    .describe("Money that came back after the Pix completed (devolução, MED), oldest first; the state stays `completed`"),
  history: z.array(historyEntrySchema).describe("Every transition, in order"),
});

export const transferPageSchema = z.strictObject({
  data: z.array(transferSchema).describe("Newest first"),
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

export const limitsSchema = z.strictObject({
  account_id: accountIdSchema,
  per_transfer_cents: cents.positive().describe("The most one transfer may carry"),
  daily_cents: cents.nonnegative().describe("The most the account may send in one São Paulo day"),
  night_per_transfer_cents: cents.positive().describe("The most one transfer may carry at night"),
  night_starts_at: localTime,
  night_ends_at: localTime,
  day: z.iso.date().describe("Today in São Paulo"),
  used_today_cents: cents.nonnegative(),
  remaining_today_cents: cents.nonnegative(),
  velocity_max_per_10_min: z.number().int().positive().describe("Transfers the account may start in any ten minutes"),
  new_key_review_above_cents: cents.nonnegative().describe("A first transfer to a new key above this waits for review"),
});

// Operators (CONTRACT §5).

export const opsTransferSchema = transferSchema.extend({ account_id: accountIdSchema });
export const opsTransferListSchema = z.strictObject({ data: z.array(opsTransferSchema) });

export const storyHistoryEntrySchema = z.strictObject({
  from: transferStateSchema.nullable(),
  state: transferStateSchema,
  at: timestamp,
  reason: z.string().nullable(),
  actor: z.enum(["saga", "provider", "operator", "client"]).describe("client: the owner's cancel of a scheduled transfer"),
  evidence: z.unknown().describe("What justified the transition (a provider answer, an operator's note), or null"),
});

export const providerCallSchema = z.strictObject({
  kind: z.enum(["send", "status"]),
  at: timestamp,
  outcome: z.string().describe("The classified answer: accepted, rejected, unknown, confirmed, processing, not_found, ..."),
  http_status: z.number().int().nullable().describe("null when no HTTP answer came (timeout, reset)"),
  duration_ms: z.number().int().nonnegative(),
  detail: z.unknown().describe("The provider's answer as received, or the error"),
});

export const transferStorySchema = opsTransferSchema.extend({
  send_attempts: z.number().int().nonnegative(),
  held_before_sending: z.boolean().describe("Nothing was ever sent (an anti-fraud hold): resolved with approve or not_sent, never sent"),
  checks_made: z.number().int().nonnegative(),
  next_check_at: timestamp.nullable(),
  deadline_at: timestamp,
  history: z.array(storyHistoryEntrySchema).describe("Every transition, in order, with its evidence"),
  provider_calls: z.array(providerCallSchema).describe("Every send and status check, in order, with its answer"),
  hold: z
    .strictObject({
      status: z.string().describe("held, settled or released"),
      amount_cents: cents.positive(),
      created_at: timestamp,
      resolved_at: timestamp.nullable(),
    })
    .nullable()
    .describe("The ledger hold; null when the hold failed (insufficient funds)"),
  entries: z
    .array(
      z.strictObject({
        account_id: z.string().describe("A customer account, or a house account (funding, clearing)"),
        amount_cents: cents,
        balance_after_cents: cents.nullable(),
        at: timestamp,
      }),
    )
    .describe("The ledger entries of the settlement, once settled, then those of each return"),
});

export const reconciliationSchema = z.strictObject({
  ok: z.boolean(),
  accounts_checked: z.number().int().nonnegative(),
  divergences: z
    .array(z.looseObject({ kind: z.string() }))
    .describe(
      "balance_differs_from_entries, held_differs_from_open_holds, transaction_unbalanced or entries_do_not_sum_to_zero, with the amounts",
    ),
});

export const creditPendingSchema = z.strictObject({
  status: z.literal("pending_approval"),
  credit_id: z.uuid().describe("Approve it with POST /ops/credits/{credit_id}/approve, as another person"),
});

export const auditEntrySchema = z.strictObject({
  id: z.string().describe("Increasing with time"),
  at: timestamp,
  actor: z.string().describe("The Cloudflare Access email of the person, or `ops-token` for a machine"),
  action: z.enum([
    "account_created",
    "credit",
    "credit_requested",
    "credit_approved",
    "limits_changed",
    "transfer_resolved",
    "reconciliation_run",
  ]),
  account_id: z.string().nullable(),
  transfer_id: z.string().nullable(),
  details: z
    .unknown()
    .describe("What changed: amounts and keys of credits, old and new limits, a resolution's outcome and note, a run's verdict"),
});

export const auditPageSchema = z.strictObject({
  data: z.array(auditEntrySchema).describe("Newest first"),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
});

export const sweepSchema = z.strictObject({ poked: z.number().int().nonnegative().describe("Overdue sagas poked") });

/** An outbound event (CONTRACT §6), as POSTed to EVENTS_URL and kept in the outbox. */
export const outboundEventSchema = z.strictObject({
  type: z.enum(["transfer.updated", "transfer.returned"]),
  id: z.string().regex(/^evt_/).describe("The event id: the `webhook-id` of every delivery attempt"),
  sequence: z.number().int().positive().describe("1, 2, 3... per transfer; the delivery order and the stream's event id"),
  occurred_at: timestamp,
  data: transferSchema.describe("The transfer as its client saw it right after this change"),
});

export const eventAttemptSchema = z.strictObject({
  at: timestamp,
  http_status: z.number().int().nullable().describe("The receiver's status; null when no answer came (timeout, refused)"),
  duration_ms: z.number().int().nonnegative(),
  error: z.string().nullable().describe("Why the attempt failed; null for a 2xx"),
});

export const opsEventSchema = outboundEventSchema.extend({
  transfer_id: z.string().uuid(),
  status: z.enum(["pending", "delivered", "parked"]).describe("parked: still refused after 3 days of retries; later events wait"),
  next_attempt_at: timestamp.nullable(),
  delivered_at: timestamp.nullable(),
  parked_at: timestamp.nullable(),
  attempts: z.array(eventAttemptSchema).describe("Every delivery attempt, in order"),
});

export const opsEventListSchema = z.strictObject({ data: z.array(opsEventSchema) });

// The sandbox provider (CONTRACT §4), when SANDBOX_PROVIDER=on.

export const sandboxPaymentSchema = z.strictObject({
  idempotency_key: z.string(),
  send_calls: z.number().int().nonnegative(),
  status_calls: z.number().int().nonnegative(),
  made: z.boolean().describe("Whether money actually left"),
  status: z.enum(["processing", "confirmed", "rejected", "not_found"]),
  end_to_end_id: z.string().nullable(),
});

export const sandboxPaymentListSchema = z.strictObject({ data: z.array(sandboxPaymentSchema) });

export const sandboxOutageSchema = z.strictObject({ outage_until: timestamp.describe("Until when the PSP API answers 503") });

export const providerAnswerSchema = z
  .looseObject({
    idempotency_key: z.string().optional(),
    amount_cents: cents.positive().optional(),
    status: z.enum(["processing", "confirmed", "rejected"]).optional(),
    end_to_end_id: z.string().nullable().optional(),
    code: z.string().nullable().optional(),
  })
  .describe("The PSP's answer: the payment ({ status, end_to_end_id, ... }), or { code } on a rejection or error");

export type TransferBody = z.infer<typeof transferSchema>;
export type BalanceBody = z.infer<typeof balanceSchema>;
