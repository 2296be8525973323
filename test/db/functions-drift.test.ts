/// <reference types="vite/client" />
// drizzle/functions/ against the migrated database: every function in `public` is exactly its
// source file, and every source file's function exists. The files are written the way
// pg_get_functiondef() prints a definition, so the only normalisation is what PostgreSQL does
// not keep at all: the comment lines above the statement and the statement's closing `;`.
import { beforeAll, describe, expect, it } from "vitest";
import { filePool } from "../support/pool-test.ts";

const files = import.meta.glob<string>("../../drizzle/functions/*.sql", { query: "?raw", import: "default", eager: true });

const sources = new Map(Object.entries(files).map(([file, text]) => [file.replace(/^.*\/(\w+)\.sql$/, "$1"), asPrinted(text)] as const));

/** The file as pg_get_functiondef() prints it: no comment lines above, no `;` after. */
function asPrinted(text: string): string {
  const lines = text.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "" && !line.startsWith("--"));
  return `${lines.slice(first).join("\n").trimEnd().replace(/;$/, "")}\n`;
}

const pool = filePool(1);
let live: Map<string, string>;
beforeAll(async () => {
  const { rows } = await pool.query<{ name: string; definition: string }>(
    `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS definition
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public' AND p.prokind = 'f'
        -- An extension's functions are its own (scripts/lib/sql-functions/live.ts leaves them too).
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
      ORDER BY p.proname`,
  );
  live = new Map(rows.map((row) => [row.name, row.definition]));
});

describe("SQL functions: drizzle/functions/ is what the database runs", () => {
  it("has one source file per function in the database, and no file without its function", () => {
    expect(sources.size).toBeGreaterThan(0);
    expect([...live.keys()].sort()).toEqual([...sources.keys()].sort());
  });

  it("defines every function in the database exactly as its source file", () => {
    for (const [name, definition] of live) expect(definition, `drizzle/functions/${name}.sql`).toBe(sources.get(name));
  });
});
