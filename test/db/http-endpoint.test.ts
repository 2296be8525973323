// The local stand-in for Neon's HTTP SQL endpoint (scripts/lib/http-sql/) answers the real
// driver as Neon does: a query, a batch in one transaction, a SQL error with PostgreSQL's
// fields, and values of every type the application reads come back as the Pool returns them.
import { env } from "cloudflare:test";
import { type NeonDbError, neon } from "@neondatabase/serverless";
import { beforeAll, describe, expect, it } from "vitest";
import { httpDb } from "../../src/db/http.ts";
import type { Queryable } from "../../src/db/queryable.ts";
import { dbSettings } from "../../src/db/settings.ts";
import { filePool } from "../support/pool-test.ts";

const db: Queryable = httpDb({ ...dbSettings(env), applicationName: "pix-test" });
const pool = filePool(1);

// A value of each kind the schema holds: timestamptz, int8, jsonb, text[], int[], bytea, bool,
// numeric, NULL.
const typedRow = `SELECT $1::timestamptz AS at, $2::bigint AS big, $3::jsonb AS doc, $4::text[] AS tags,
  ARRAY[1, 2, 3]::int[] AS ints, $5::bytea AS bytes, true AS flag, 12.50::numeric AS amount, NULL::text AS nothing`;
const typedParams = [
  new Date("2026-01-02T03:04:05.678Z"),
  "9007199254740993",
  { a: [1, "x"], b: null },
  ["x", "y,z", 'q"'],
  new Uint8Array([0, 1, 254, 255]),
];

describe("the HTTP SQL stand-in", () => {
  beforeAll(async () => {
    await db.query("SELECT 1");
  });

  it("answers a parameterised query with named rows", async () => {
    const { rows } = await db.query<{ n: number; s: string }>("SELECT $1::int + 1 AS n, $2::text AS s", [41, "olá"]);
    expect(rows).toEqual([{ n: 42, s: "olá" }]);
  });

  it("parses every type as the WebSocket Pool does", async () => {
    const overHttp = (await db.query(typedRow, typedParams)).rows[0] ?? {};
    const overPool = (await pool.query(typedRow, typedParams)).rows[0];
    expect(overHttp).toEqual(overPool);
    expect(overHttp).toMatchObject({
      big: "9007199254740993",
      doc: { a: [1, "x"], b: null },
      tags: ["x", "y,z", 'q"'],
      ints: [1, 2, 3],
      nothing: null,
    });
    expect((overHttp.at as Date).toISOString()).toBe("2026-01-02T03:04:05.678Z");
    expect([...(overHttp.bytes as Uint8Array)]).toEqual([0, 1, 254, 255]);
  });

  it("reports the command and row count of a full result", async () => {
    const sql = neon(`${env.DATABASE_URL}`, { fullResults: true });
    const result = await sql.query("SELECT generate_series(1, 3) AS n");
    expect(result).toMatchObject({ command: "SELECT", rowCount: 3, rows: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    expect(result.fields.map((f) => [f.name, f.dataTypeID])).toEqual([["n", 23]]);
  });

  it("runs a batch in one transaction at the isolation level asked for", async () => {
    const sql = neon(env.DATABASE_URL);
    const [level, readOnly, sameTransaction] = await sql.transaction(
      [sql`SHOW transaction_isolation`, sql`SHOW transaction_read_only`, sql`SELECT now() = statement_timestamp() AS same`],
      { isolationLevel: "Serializable", readOnly: true },
    );
    expect(level).toEqual([{ transaction_isolation: "serializable" }]);
    expect(readOnly).toEqual([{ transaction_read_only: "on" }]);
    // now() is the transaction's start: a later statement of the same transaction differs from it.
    expect(sameTransaction).toEqual([{ same: false }]);
  });

  it("rolls a failed batch back whole", async () => {
    const sql = neon(env.DATABASE_URL);
    const name = `http_probe_${crypto.randomUUID().replaceAll("-", "")}`;
    await sql.query(`CREATE TABLE ${name} (n int)`);
    await expect(sql.transaction([sql.query(`INSERT INTO ${name} VALUES (1)`), sql.query("SELECT 1/0")])).rejects.toThrow(
      /division by zero/,
    );
    expect(await sql.query(`SELECT count(*)::int AS n FROM ${name}`)).toEqual([{ n: 0 }]);
    await sql.query(`DROP TABLE ${name}`);
  });

  it("answers a SQL error with PostgreSQL's fields", async () => {
    const error = (await db.query("SELECT nope FROM pg_class").catch((e: unknown) => e)) as NeonDbError;
    expect(error.name).toBe("NeonDbError");
    expect(error).toMatchObject({ code: "42703", severity: "ERROR", position: "8" });
    expect(error.message).toMatch(/column "nope" does not exist/);
    const raised = (await db.query("SELECT 1 / $1::int", [0]).catch((e: unknown) => e)) as NeonDbError;
    expect(raised).toMatchObject({ code: "22012", routine: expect.any(String) });
  });

  it("names the connection after the application_name of its connection string", async () => {
    const { rows } = await db.query<{ name: string }>("SELECT current_setting('application_name') AS name");
    expect(rows).toEqual([{ name: "pix-test" }]);
  });
});
