// drizzle/'s numbered migrations, applied inside the caller's transaction. The journal, the
// statement breakpoints and the drizzle.__drizzle_migrations bookkeeping are drizzle-orm's own
// (readMigrationFiles, and what its pg migrator writes), so a database migrated by either reads
// the same; only the transaction is ours, so the functions' passes commit with the tables
// (drizzle's migrate() opens and commits one of its own).
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { SqlSession } from "./sql-functions/live.ts";

const hashPattern = /^[0-9a-f]{64}$/;

/** Returns how many migrations it applied. */
export async function applyNumberedMigrations(session: SqlSession, migrationsFolder: string): Promise<number> {
  await session.query('CREATE SCHEMA IF NOT EXISTS "drizzle"');
  await session.query(
    'CREATE TABLE IF NOT EXISTS "drizzle"."__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
  );
  const { rows } = await session.query(
    'SELECT created_at::text AS created_at FROM "drizzle"."__drizzle_migrations" ORDER BY created_at DESC LIMIT 1',
  );
  const last =
    rows[0] !== null && typeof rows[0] === "object" && rows[0] !== undefined && "created_at" in rows[0] ? Number(rows[0].created_at) : null;
  let applied = 0;
  for (const migration of readMigrationFiles({ migrationsFolder })) {
    // As drizzle decides: a migration runs when it is newer than the newest one recorded.
    if (last !== null && last >= migration.folderMillis) continue;
    for (const statement of migration.sql) await session.query(statement);
    if (!hashPattern.test(migration.hash) || !Number.isSafeInteger(migration.folderMillis)) {
      throw new Error(`migration at ${migration.folderMillis} has an unexpected hash or time`);
    }
    await session.query(
      `INSERT INTO "drizzle"."__drizzle_migrations" (hash, created_at) VALUES ('${migration.hash}', ${migration.folderMillis})`,
    );
    applied += 1;
  }
  return applied;
}
