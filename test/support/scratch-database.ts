// A database of the file's own on the test server, for tests of the migrator that create and
// drop what the shared database must keep: created before the file's first test, dropped
// (connections and all) after its last, with one session on it held for the whole file.
//
//   const scratch = scratchDatabase("functions_apply");
//   it("...", async () => { await scratch.session.query("CREATE TABLE widgets (...)"); });
import { env } from "cloudflare:test";
import type { Pool, PoolClient } from "@neondatabase/serverless";
import { afterAll, beforeAll } from "vitest";
import { dbSettings } from "../../src/db/settings.ts";
import { testPool } from "./db.ts";
import { createPool } from "./ws-pool.ts";

export interface ScratchDatabase {
  /** The file's one session: BEGIN and COMMIT reach the same connection. */
  readonly session: PoolClient;
}

export function scratchDatabase(prefix: string): ScratchDatabase {
  const name = `${prefix}_${crypto.randomUUID().slice(0, 8)}`;
  const admin = testPool(1);
  let scratch: Pool | undefined;
  let session: PoolClient | undefined;
  beforeAll(async () => {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(env.DATABASE_URL);
    url.pathname = `/${name}`;
    scratch = createPool({ ...dbSettings(env), databaseUrl: url.toString(), maxConnections: 1, applicationName: `${prefix}-test` });
    session = await scratch.connect();
  });
  afterAll(async () => {
    session?.release();
    await scratch?.end();
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  });
  return {
    get session(): PoolClient {
      if (session === undefined) throw new Error(`scratch database ${name} used outside its file's tests`);
      return session;
    },
  };
}
