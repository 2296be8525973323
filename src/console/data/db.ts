// Database access for one console request: single statements over Neon's HTTP path.
import { httpDb } from "../../db/http.ts";
import type { Queryable } from "../../db/queryable.ts";
import { dbSettings } from "../../db/settings.ts";

export function withConsoleDb<T>(env: Env, work: (db: Queryable) => Promise<T>): Promise<T> {
  return work(httpDb({ ...dbSettings(env), applicationName: "pix-console" }));
}
