// GET /ops/overview's contestations: open ones and the nearest deadline. No contestation exists
// yet (CONTRACT §5 names them; their own issue adds the table): this answers none until that work
// replaces the body with a read of the open contestations, keeping the signature.
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";

export async function openContestationsSummary(_db: Queryable): Promise<JsonObject> {
  return { open: 0, nearest_deadline_at: null };
}
