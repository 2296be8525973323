// GET /ops/events (CONTRACT §5): the outbound events (§6) with their delivery attempts; with
// `transfer_id`, that transfer's events in sequence; without, the undelivered ones, parked first.
import { Hono } from "hono";
import { z } from "zod";
import { eventsForOps } from "../../events/ops-reads.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";
import { jsonResponse, problemResponse, queryParameters } from "../openapi/build.ts";
import { documented } from "../openapi/describe.ts";
import { opsAuthResponses, opsSecurity } from "../openapi/security.ts";
import { queryParams } from "../validation.ts";

export const opsEventsQuery = z.strictObject({
  transfer_id: z.string().uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});

export const opsEventRoutes = new Hono<AppEnv>();

const opsListEventsDoc = documented({
  operationId: "opsListEvents",
  summary: "Outbound events and their delivery attempts",
  description:
    "With `transfer_id`: that transfer's events in sequence, each with every delivery attempt (status, duration, error). Without: the events not yet delivered, parked ones first (a receiver that refused them for 3 days), then the oldest.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: queryParameters(opsEventsQuery, {
    transfer_id: "The transfer whose events to list.",
    limit: "At most this many events.",
  }),
  responses: {
    "200": jsonResponse("The events.", "OpsEventList"),
    "400": problemResponse("`transfer_id` is not a UUID, or `limit` is out of range."),
    ...opsAuthResponses,
  },
});

opsEventRoutes.get("/", opsListEventsDoc, queryParams(opsEventsQuery), async (c) => {
  const q = c.req.valid("query");
  const data = await withRequestDb(c, (db) => eventsForOps(db, { transferId: q.transfer_id ?? null, limit: q.limit }));
  return c.json({ data });
});
