// A database pool for one console request, ended before the response goes out.
import { withPool } from "../../db/pool.ts";
import type { Queryable } from "../../db/queryable.ts";
import { dbSettings } from "../../db/settings.ts";

export function withConsoleDb<T>(env: Env, work: (db: Queryable) => Promise<T>): Promise<T> {
  return withPool({ ...dbSettings(env), applicationName: "pix-console" }, work);
}
