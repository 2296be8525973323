// Business time for a route (src/clock/business-time.ts). With the sandbox on it is a database
// read, and a route that wrote nothing yet must not answer a failed read with a 500: it is the
// same "retry the same request" 503 a transfer whose object was unreachable gets.
import type { Context } from "hono";
import { businessNowMs, type ClockConfig } from "../clock/business-time.ts";
import { log } from "../lib/log.ts";
import { ProblemError } from "../web/problem.ts";
import { withRequestDb } from "./db.ts";

export async function requestBusinessNowMs<E extends { Bindings: Env }>(c: Context<E>, config: ClockConfig): Promise<number> {
  try {
    return await withRequestDb(c, (db) => businessNowMs(db, config));
  } catch (error) {
    log(c, "business_time_unreadable", { error: error instanceof Error ? error.message : String(error) }, "warn");
    throw new ProblemError(503, {
      type: "unavailable",
      detail: "Business time could not be read; nothing was written. Retry the same request.",
      headers: { "Retry-After": "1" },
    });
  }
}
