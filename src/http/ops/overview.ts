// GET /ops/overview (CONTRACT §5): what is happening now, for the console's home and the
// fintech's monitoring. Three reads and the provider's health, side by side; nothing is written for it.
import { Hono } from "hono";
import { z } from "zod";
import { providerHealthNow } from "../../alerts/provider-degraded.ts";
import { overviewMinutesMax } from "../../contract/overview-schema.ts";
import { undeliveredEventsSummary } from "../../events/ops-reads.ts";
import type { JsonObject } from "../../json.ts";
import { openContestationsSummary } from "../../transfers/contestations-summary.ts";
import { transfersOverview } from "../../transfers/overview-reads.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";
import { jsonResponse, problemResponse, queryParameters } from "../openapi/build.ts";
import { documented } from "../openapi/describe.ts";
import { opsAuthResponses, opsSecurity } from "../openapi/security.ts";
import { queryParams } from "../validation.ts";

export const opsOverviewQuery = z.strictObject({
  minutes: z.coerce.number().int().min(1).max(overviewMinutesMax).default(60),
});

export const opsOverviewRoutes = new Hono<AppEnv>();

const opsOverviewDoc = documented({
  operationId: "opsOverview",
  summary: "What is happening now",
  description:
    "The transfers created in the last `minutes` by their current state, per minute; completion time percentiles; the provider calls made in the window (answered, unknown, latency), per minute, and whether the provider is degraded now (`degraded`, `degraded_since`: the degraded-PSP alert's state, whatever the window); and, as of now whatever the window, the review queue, the undelivered events and the open contestations. The window is `minutes` whole minutes, the current one last: `from` is the first one's start, `to` is now.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: queryParameters(opsOverviewQuery, { minutes: "The window in minutes, 1 to 1440 (default 60)." }),
  responses: {
    "200": jsonResponse("The overview.", "OpsOverview"),
    "400": problemResponse("`minutes` is not a whole number from 1 to 1440, or an unknown query parameter."),
    ...opsAuthResponses,
  },
});

opsOverviewRoutes.get("/", opsOverviewDoc, queryParams(opsOverviewQuery), async (c) => {
  const { minutes } = c.req.valid("query");
  const [[figures, events, contestations], health] = await Promise.all([
    withRequestDb(c, (db) => Promise.all([transfersOverview(db, minutes), undeliveredEventsSummary(db), openContestationsSummary(db)])),
    providerHealthNow(c.env),
  ]);
  const provider = figures.provider as JsonObject;
  return c.json({ ...figures, provider: { ...provider, ...health }, events, contestations });
});
