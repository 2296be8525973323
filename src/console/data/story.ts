// One transfer's whole story for the console: transferStory (the same read GET /ops/transfers/:id
// answers with), parsed once here so the views work with checked, typed fields.
import { z } from "zod";
import type { Queryable } from "../../db/queryable.ts";
import { uuidPattern } from "../../lib/ids.ts";
import { transferStory } from "../../transfers/ops-reads.ts";

const historyEntry = z.object({
  from: z.string().nullable(),
  state: z.string(),
  at: z.string(),
  reason: z.string().nullable(),
  actor: z.string(),
  evidence: z.unknown(),
});

const providerCall = z.object({
  kind: z.string(),
  at: z.string(),
  outcome: z.string(),
  http_status: z.number().nullable(),
  duration_ms: z.number(),
  detail: z.unknown(),
});

const ledgerEntry = z.object({
  account_id: z.string(),
  amount_cents: z.number(),
  balance_after_cents: z.number().nullable(),
  at: z.string(),
});

const transferReturn = z.object({ id: z.string(), amount_cents: z.number(), reason: z.string(), at: z.string() });

const storySchema = z.object({
  id: z.string(),
  account_id: z.string(),
  state: z.string(),
  amount_cents: z.number(),
  pix_key: z.string(),
  pix_key_type: z.string(),
  description: z.string().nullable(),
  failure_reason: z.string().nullable(),
  failure_code: z.string().nullable(),
  end_to_end_id: z.string().nullable(),
  br_code: z.string().nullable(),
  merchant_name: z.string().nullable(),
  merchant_city: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  scheduled_for: z.string().nullable(),
  returned_cents: z.number(),
  returns: z.array(transferReturn),
  send_attempts: z.number(),
  /** Nothing was ever sent: an anti-fraud hold, resolved by approve or not_sent. */
  held_before_sending: z.boolean(),
  checks_made: z.number(),
  next_check_at: z.string().nullable(),
  deadline_at: z.string().nullable(),
  history: z.array(historyEntry),
  provider_calls: z.array(providerCall),
  hold: z.object({ status: z.string(), amount_cents: z.number(), created_at: z.string(), resolved_at: z.string().nullable() }).nullable(),
  entries: z.array(ledgerEntry),
});

export type TransferStory = z.infer<typeof storySchema>;
export type HistoryEntry = z.infer<typeof historyEntry>;
export type ProviderCall = z.infer<typeof providerCall>;
export type LedgerEntry = z.infer<typeof ledgerEntry>;
export type TransferReturn = z.infer<typeof transferReturn>;

export async function readTransferStory(db: Queryable, transferId: string): Promise<TransferStory | null> {
  if (!uuidPattern.test(transferId)) return null;
  const story = await transferStory(db, transferId);
  return story === null ? null : storySchema.parse(story);
}
