// The contestation queue (CONTRACT §5): read-only here; a person records Efí's hand-over and
// decision through POST /ops/contestations/:id/submitted and /decision.
import { Hono } from "hono";
import type { ConsoleEnv } from "../console-env.ts";
import { contestationQueue } from "../data/contestations.ts";
import { withConsoleDb } from "../data/db.ts";
import { page } from "../render.tsx";
import { ContestationsPage } from "../views/contestations.tsx";

export const contestationPages = new Hono<ConsoleEnv>();

contestationPages.get("/contestations", async (c) => {
  const queue = await withConsoleDb(c.env, (db) => contestationQueue(db));
  return page(c, <ContestationsPage queue={queue} csrfToken={c.var.csrfToken} businessNowMs={Date.now()} />);
});
