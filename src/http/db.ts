// A database pool for the span of one request (a Worker may not keep one across requests).
import type { Context } from "hono";
import { withPool } from "../db/pool.ts";
import type { Queryable } from "../db/queryable.ts";
import { dbSettings } from "../db/settings.ts";
import type { AppEnv } from "./app-env.ts";

export function withRequestDb<T>(c: Context<AppEnv>, work: (db: Queryable) => Promise<T>): Promise<T> {
  return withPool({ ...dbSettings(c.env), applicationName: "pix-api" }, work);
}
