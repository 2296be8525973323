// Database access for one request. Every route's work is single statements (one SQL function
// call or one SELECT each), so it goes over Neon's HTTP path: one round trip per statement,
// nothing opened for the request or left to end.
import type { Context } from "hono";
import { httpDb } from "../db/http.ts";
import type { Queryable } from "../db/queryable.ts";
import { dbSettings } from "../db/settings.ts";

export function withRequestDb<T, E extends { Bindings: Env }>(c: Context<E>, work: (db: Queryable) => Promise<T>): Promise<T> {
  return work(httpDb({ ...dbSettings(c.env), applicationName: "pix-api" }));
}
