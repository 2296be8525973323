// Database helpers for tests running in workerd: the same driver and settings as production.
import { env } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { dbSettings } from "../../src/db/settings.ts";
import { createPool } from "./ws-pool.ts";

export function testPool(maxConnections = 10): Pool {
  return createPool({ ...dbSettings(env), maxConnections, applicationName: "pix-test" });
}

/** Ids unique per test, so test files sharing one database never see each other's rows. */
export function uniqueAccountId(prefix = "acct"): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 13)}`;
}
