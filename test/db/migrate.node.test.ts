// The migrator from nothing, on every run: the tests' cluster is a copy of one migrated when the
// schema last changed (scripts/lib/migrated-cluster.ts), so this file migrates an empty database
// of the test server, and migrates it again, which must change nothing.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { applyMigrations } from "../../scripts/lib/migrate.ts";

const name = `migrate_${randomUUID().slice(0, 8)}`;
const admin = new pg.Client({ connectionString: inject("databaseUrl") });
const url = new URL(inject("databaseUrl"));
url.pathname = `/${name}`;

beforeAll(async () => {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
});

afterAll(async () => {
  await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  await admin.end();
});

describe("npm run db:migrate", () => {
  it("migrates an empty database, and a second migrate changes nothing: no migration, no function", async () => {
    const first = await applyMigrations(url.toString());
    expect(first.migrationsApplied).toBeGreaterThan(0);
    expect(first.functions.changed.length).toBeGreaterThan(0);
    const again = await applyMigrations(url.toString());
    expect(again.migrationsApplied).toBe(0);
    expect(again.functions.statements).toEqual([]);
  });
});
