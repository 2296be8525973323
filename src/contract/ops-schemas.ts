// The operators' response bodies (CONTRACT §5), as zod schemas like the client API's
// (schemas.ts): the OpenAPI document is generated from them and the console and ops tests
// validate real responses against them. Strict objects, as there.
import { z } from "zod";
import { operatorActionKinds } from "../audit/actions.ts";
import { outboundEventSchema } from "./event-schemas.ts";
import { accountIdSchema, cents, contestationSchema, timestamp, transferSchema, transferStateSchema } from "./schemas.ts";

export const opsTransferSchema = transferSchema.extend({ account_id: accountIdSchema });
export const opsTransferListSchema = z.strictObject({ data: z.array(opsTransferSchema) });

export const storyHistoryEntrySchema = z.strictObject({
  from: transferStateSchema.nullable(),
  state: transferStateSchema,
  at: timestamp,
  reason: z.string().nullable(),
  actor: z
    .string()
    .describe(
      "Who made the transition: `saga`, `provider`, `client` (the owner's cancel of a scheduled transfer), or the operator who decided (their Access email, or `ops-token`)",
    ),
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
  device_id: z.string().nullable().describe("The device the client requested it from (DEVICE_RULES on); null when the rules were off"),
  device_registered: z
    .boolean()
    .nullable()
    .describe(
      "Whether that device was registered when the hold was decided (false: it counted toward the new-device cap); null: not judged",
    ),
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
  action: z.enum(operatorActionKinds),
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

export const opsContestationSchema = contestationSchema.extend({
  account_id: accountIdSchema,
  psp_ref: z.string().nullable().describe("The provider's reference, once it took it (recorded by an operator for Efí)"),
  past_deadline: z.boolean().describe("deadline_at has passed without a decision"),
  deadline_alerted_at: timestamp.nullable().describe("When operators were alerted that it passed its deadline undecided (once)"),
  transfer: transferSchema,
});

export const opsContestationListSchema = z.strictObject({ data: z.array(opsContestationSchema) });

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
