// The console's home reads what GET /ops/overview answers, with the same reads (the provider's
// health passed in, as the route reads it), parsed with the contract's schema: the home and the
// API cannot tell different stories.
import type { z } from "zod";
import { opsOverviewSchema } from "../../contract/overview-schema.ts";
import type { Queryable } from "../../db/queryable.ts";
import { undeliveredEventsSummary } from "../../events/ops-reads.ts";
import type { JsonObject } from "../../json.ts";
import { openContestationsSummary } from "../../transfers/contestations-summary.ts";
import { transfersOverview } from "../../transfers/overview-reads.ts";

export type Overview = z.infer<typeof opsOverviewSchema>;

/** Whether the provider is degraded now, as the degraded-PSP alert's object tells it. */
export interface ProviderHealthNow {
  degraded: boolean;
  degraded_since: string | null;
}

export async function readOverview(db: Queryable, minutes: number, health: ProviderHealthNow): Promise<Overview> {
  const [figures, events, contestations] = await Promise.all([
    transfersOverview(db, minutes),
    undeliveredEventsSummary(db),
    openContestationsSummary(db),
  ]);
  return opsOverviewSchema.parse({ ...figures, provider: { ...(figures.provider as JsonObject), ...health }, events, contestations });
}
