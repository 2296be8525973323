// One transfer's whole story for the console: transferStory (the same read GET /ops/transfers/:id
// answers with), parsed with that route's own contract schema, so the views work with checked,
// typed fields and a story that drifts from the contract fails here, loudly, as in the API tests.
import type { z } from "zod";
import { transferStorySchema } from "../../contract/ops-schemas.ts";
import type { Queryable } from "../../db/queryable.ts";
import { uuidPattern } from "../../lib/ids.ts";
import { transferStory } from "../../transfers/ops-reads.ts";

export type TransferStory = z.infer<typeof transferStorySchema>;
export type HistoryEntry = TransferStory["history"][number];
export type ProviderCall = TransferStory["provider_calls"][number];
export type LedgerEntry = TransferStory["entries"][number];
export type TransferReturn = TransferStory["returns"][number];

export async function readTransferStory(db: Queryable, transferId: string): Promise<TransferStory | null> {
  if (!uuidPattern.test(transferId)) return null;
  const story = await transferStory(db, transferId);
  return story === null ? null : transferStorySchema.parse(story);
}
