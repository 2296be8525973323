// The numbered-migrations runner (scripts/lib/numbered-migrations.ts) on a scratch database of
// the test server, with migrations of its own: each runs once, in journal order, and is recorded
// as drizzle's migrator records it; a database whose record names a migration the journal does
// not have (one migrated by a history drizzle/ no longer holds) is refused before anything runs.
import type { MigrationMeta } from "drizzle-orm/migrator";
import { describe, expect, it } from "vitest";
import { applyNumberedMigrations } from "../../scripts/lib/numbered-migrations.ts";
import { scratchDatabase } from "../support/scratch-database.ts";

const scratch = scratchDatabase("numbered_migrations");

const migration = (folderMillis: number, ...sql: string[]): MigrationMeta => ({
  sql,
  folderMillis,
  hash: folderMillis.toString(16).padStart(64, "0"),
  bps: true,
});
const first = migration(1_000, "CREATE TABLE gadgets (id int PRIMARY KEY)", "INSERT INTO gadgets VALUES (1)");
const second = migration(2_000, "ALTER TABLE gadgets ADD COLUMN name text");

async function recorded(): Promise<string[]> {
  const { rows } = await scratch.session.query<{ created_at: string }>(
    'SELECT created_at::text AS created_at FROM "drizzle"."__drizzle_migrations" ORDER BY id',
  );
  return rows.map((row) => row.created_at);
}

describe("the numbered migrations", () => {
  it("runs each migration once, in order, and records it", async () => {
    expect(await applyNumberedMigrations(scratch.session, [first])).toBe(1);
    expect(await applyNumberedMigrations(scratch.session, [first, second])).toBe(1);
    expect(await applyNumberedMigrations(scratch.session, [first, second])).toBe(0);
    expect(await recorded()).toEqual(["1000", "2000"]);
    const { rows } = await scratch.session.query<{ id: number; name: string | null }>("SELECT id, name FROM gadgets");
    expect(rows).toEqual([{ id: 1, name: null }]);
  });

  it("refuses a database whose record names a migration the journal does not have, and runs nothing", async () => {
    const baseline = migration(3_000, "CREATE TABLE widgets (id int PRIMARY KEY)");
    await expect(applyNumberedMigrations(scratch.session, [baseline])).rejects.toThrow(
      /records 2 migration\(s\) that drizzle\/ does not have .*delete \.data\/postgres/,
    );
    const { rows } = await scratch.session.query<{ widgets: string | null }>("SELECT to_regclass('widgets')::text AS widgets");
    expect(rows).toEqual([{ widgets: null }]);
    expect(await recorded()).toEqual(["1000", "2000"]);
  });
});
