// The contestation queue (CONTRACT §5): read-only here; a person records Efí's hand-over and
// decision through POST /ops/contestations/:id/submitted and /decision.
import { Hono } from "hono";
import { businessNowMs } from "../../clock/business-time.ts";
import { configuredOrThrow } from "../../config/isolate.ts";
import type { ConsoleEnv } from "../console-env.ts";
import { contestationQueue } from "../data/contestations.ts";
import { withConsoleDb } from "../data/db.ts";
import { page } from "../render.tsx";
import { ContestationsPage } from "../views/contestations.tsx";

export const contestationPages = new Hono<ConsoleEnv>();

contestationPages.get("/contestations", async (c) => {
  // Business time decides which are marked past their deadline.
  const { queue, businessNow } = await withConsoleDb(c.env, async (db) => ({
    queue: await contestationQueue(db),
    businessNow: await businessNowMs(db, configuredOrThrow(c.env)),
  }));
  return page(c, <ContestationsPage queue={queue} csrfToken={c.var.csrfToken} businessNowMs={businessNow} />);
});
