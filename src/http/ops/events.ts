// GET /ops/events (CONTRACT §5): the outbound events (§6) with their delivery attempts; with
// `transfer_id`, that transfer's events in sequence; without, the undelivered ones, parked first.
import { Hono } from "hono";
import { z } from "zod";
import { eventsForOps } from "../../events/ops-reads.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";
import { queryParams } from "../validation.ts";

export const opsEventsQuery = z.strictObject({
  transfer_id: z.string().uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});

export const opsEventRoutes = new Hono<AppEnv>();

opsEventRoutes.get("/", queryParams(opsEventsQuery), async (c) => {
  const q = c.req.valid("query");
  const data = await withRequestDb(c, (db) => eventsForOps(db, { transferId: q.transfer_id ?? null, limit: q.limit }));
  return c.json({ data });
});
