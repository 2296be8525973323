// The local WebSocket proxy pools server connections per session (scripts/lib/pg-pool,
// PgBouncer's session mode; Neon's pooler runs transaction mode, and why the Worker cannot tell
// is said there). Pooling must be invisible: a reused server process starts each
// client in a clean session, never inside someone else's transaction, and only for the
// password that opened it.
import { env } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { describe, expect, it } from "vitest";
import { createPool } from "../../src/db/pool.ts";
import { dbSettings } from "../../src/db/settings.ts";
import { sleep } from "../../src/lib/sleep.ts";
import { filePool } from "../support/pool-test.ts";

const observer = filePool(1);

/** Its own application_name per test: the pool key is the whole startup message. */
function appName(): string {
  return `pool-test-${crypto.randomUUID().slice(0, 8)}`;
}

async function withSession<T>(applicationName: string, work: (pool: Pool) => Promise<T>, databaseUrl = env.DATABASE_URL): Promise<T> {
  const pool = createPool({ ...dbSettings(env), databaseUrl, maxConnections: 1, applicationName });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

async function backendPid(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  return Number(rows[0]?.pid);
}

/** The proxy returns a backend once its reset answered; the next client may come right after. */
async function settle(): Promise<void> {
  await sleep(50);
}

describe("the pooling proxy", () => {
  it("hands a warm server process to the next client with the same startup", async () => {
    const name = appName();
    const first = await withSession(name, backendPid);
    await settle();
    expect(await withSession(name, backendPid)).toBe(first);
  });

  it("resets the session first: settings and temporary tables do not carry over", async () => {
    const name = appName();
    const first = await withSession(name, async (pool) => {
      await pool.query("SET statement_timeout = '1234ms'");
      await pool.query("CREATE TEMP TABLE pooled_leftover (id int)");
      return backendPid(pool);
    });
    await settle();
    await withSession(name, async (pool) => {
      expect(await backendPid(pool)).toBe(first);
      const { rows } = await pool.query<{ timeout: string; leftover: string | null }>(
        "SELECT current_setting('statement_timeout') AS timeout, to_regclass('pg_temp.pooled_leftover')::text AS leftover",
      );
      expect(rows[0]).toEqual({ timeout: "0", leftover: null });
    });
  });

  it("never hands out a server process its client left inside a transaction", async () => {
    const name = appName();
    const accountId = `pool-${crypto.randomUUID().slice(0, 8)}`;
    const first = await withSession(name, async (pool) => {
      const client = await pool.connect();
      await client.query("BEGIN");
      await client.query("SELECT ledger_create_account($1)", [accountId]);
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      // Back to the pool still inside the transaction; ending the pool then says goodbye.
      client.release();
      return Number(rows[0]?.pid);
    });
    await settle();
    expect(await withSession(name, backendPid)).not.toBe(first);
    // The abandoned transaction rolled back with its server process.
    const { rows } = await observer.query("SELECT 1 FROM accounts WHERE id = $1", [accountId]);
    expect(rows).toHaveLength(0);
  });

  it("refuses a warm server process to a client with another password", async () => {
    const name = appName();
    const first = await withSession(name, backendPid);
    await settle();
    const wrong = new URL(env.DATABASE_URL);
    wrong.password = "not-the-password";
    await expect(withSession(name, backendPid, wrong.toString())).rejects.toThrow(/password authentication failed/);
    await settle();
    expect(await withSession(name, backendPid)).toBe(first);
  });

  it("does not hand out a server process that was terminated while idle", async () => {
    const name = appName();
    const first = await withSession(name, backendPid);
    await settle();
    const { rows } = await observer.query<{ killed: boolean }>("SELECT pg_terminate_backend($1) AS killed", [first]);
    expect(rows[0]?.killed).toBe(true);
    await settle();
    const second = await withSession(name, backendPid);
    expect(second).not.toBe(first);
  });
});
