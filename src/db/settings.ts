import type { DbSettings } from "./http.ts";

export function dbSettings(env: Env): DbSettings {
  return { databaseUrl: env.DATABASE_URL, wsProxy: env.NEON_WS_PROXY };
}
