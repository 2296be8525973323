// The home (the overview: figures, charts, search) and the lists behind its figures: the
// window's transfers by state and reason, and the undelivered events. Reads only.
import { type Context, Hono } from "hono";
import { z } from "zod";
import { providerHealthNow } from "../../alerts/provider-degraded.ts";
import { opsEventListSchema } from "../../contract/ops-schemas.ts";
import { overviewMinutesMax } from "../../contract/overview-schema.ts";
import { eventsForOps, undeliveredEventsSummary } from "../../events/ops-reads.ts";
import { failureReasons, transferStates } from "../../saga/states.ts";
import type { ConsoleEnv } from "../console-env.ts";
import { listRowsMax } from "../data/bounded-list.ts";
import { withConsoleDb } from "../data/db.ts";
import { readOverview } from "../data/overview.ts";
import { windowTransfers } from "../data/window-transfers.ts";
import { page } from "../render.tsx";
import { HomePage } from "../views/overview.tsx";
import { RefusalPage } from "../views/refusal.tsx";
import { UndeliveredEventsPage } from "../views/undelivered-events.tsx";
import { WindowTransfersPage } from "../views/window-transfers.tsx";

/** The window in whole minutes, as GET /ops/overview takes it; an empty field means the default hour. */
const minutes = z.preprocess(
  (value) => (value === "" ? undefined : value),
  z.coerce.number().int().min(1).max(overviewMinutesMax).default(60),
);

const homeQuery = z.strictObject({ minutes });

const listQuery = z.strictObject({
  minutes,
  state: z.enum([...transferStates, "in_flight"]).optional(),
  reason: z.enum(failureReasons).optional(),
});

function badWindow(c: Context<ConsoleEnv>) {
  const message = `That window or filter is not valid: minutes is a whole number from 1 to ${overviewMinutesMax}, state a transfer state or in_flight, reason a failure reason.`;
  return page(c, <RefusalPage title="Overview" message={message} csrfToken={c.var.csrfToken} />, 400);
}

export const overviewPages = new Hono<ConsoleEnv>();

overviewPages.get("/", async (c) => {
  const parsed = homeQuery.safeParse(c.req.query());
  if (!parsed.success) return badWindow(c);
  const health = await providerHealthNow(c.env);
  const overview = await withConsoleDb(c.env, (db) => readOverview(db, parsed.data.minutes, health));
  return page(c, <HomePage overview={overview} minutes={parsed.data.minutes} csrfToken={c.var.csrfToken} />);
});

overviewPages.get("/transfers", async (c) => {
  const parsed = listQuery.safeParse(c.req.query());
  if (!parsed.success) return badWindow(c);
  const filter = { minutes: parsed.data.minutes, state: parsed.data.state ?? null, reason: parsed.data.reason ?? null };
  const list = await withConsoleDb(c.env, (db) => windowTransfers(db, filter));
  return page(c, <WindowTransfersPage list={list} filter={filter} csrfToken={c.var.csrfToken} />);
});

overviewPages.get("/events", async (c) => {
  const { events, count } = await withConsoleDb(c.env, async (db) => {
    const [listed, summary] = await Promise.all([eventsForOps(db, { transferId: null, limit: listRowsMax }), undeliveredEventsSummary(db)]);
    return { events: opsEventListSchema.parse({ data: listed }).data, count: Number(summary.undelivered ?? 0) };
  });
  return page(c, <UndeliveredEventsPage events={events} count={count} csrfToken={c.var.csrfToken} />);
});
