// Database access for one request. Every route's work is single statements (one SQL function
// call or one SELECT each), so it goes over Neon's HTTP path: one round trip per statement,
// nothing opened for the request or left to end.
import type { Context } from "hono";
import { httpDb } from "../db/http.ts";
import type { Queryable } from "../db/queryable.ts";
import { dbSettings } from "../db/settings.ts";
import type { AppEnv } from "./app-env.ts";

export function withRequestDb<T>(c: Context<AppEnv>, work: (db: Queryable) => Promise<T>): Promise<T> {
  return work(httpDb({ ...dbSettings(c.env), applicationName: "pix-api" }));
}
