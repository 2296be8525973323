// drizzle/'s numbered migrations, applied inside the caller's transaction. The journal, the
// statement breakpoints and the drizzle.__drizzle_migrations bookkeeping are drizzle-orm's own
// (the caller reads the files with readMigrationFiles; the rows are what its pg migrator writes),
// so a database migrated by either reads the same; only the transaction is ours, so the
// functions' passes commit with the tables (drizzle's migrate() opens and commits one of its own).
import type { MigrationMeta } from "drizzle-orm/migrator";
import type { SqlSession } from "./sql-functions/live.ts";

const hashPattern = /^[0-9a-f]{64}$/;

/** Returns how many migrations it applied. */
export async function applyNumberedMigrations(session: SqlSession, migrations: readonly MigrationMeta[]): Promise<number> {
  await session.query('CREATE SCHEMA IF NOT EXISTS "drizzle"');
  await session.query(
    'CREATE TABLE IF NOT EXISTS "drizzle"."__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
  );
  const { rows } = await session.query('SELECT created_at::text AS created_at FROM "drizzle"."__drizzle_migrations"');
  const recordedMs = rows.map((row) =>
    Number(row !== null && typeof row === "object" && "created_at" in row ? row.created_at : Number.NaN),
  );
  refuseForeignHistory(
    recordedMs,
    migrations.map((migration) => migration.folderMillis),
  );
  const last = recordedMs.length === 0 ? null : Math.max(...recordedMs);
  let applied = 0;
  for (const migration of migrations) {
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

/**
 * drizzle/ was squashed into one baseline on 2026-12-02, before anything was deployed. A database
 * migrated by the history before it records migrations the journal no longer has; applying the
 * baseline there would fail halfway on tables that exist, so it is refused up front, by name.
 */
function refuseForeignHistory(recordedMs: number[], journalMs: number[]): void {
  const known = new Set(journalMs);
  const foreign = recordedMs.filter((createdAtMs) => !known.has(createdAtMs));
  if (foreign.length === 0) return;
  throw new Error(
    `this database records ${foreign.length} migration(s) that drizzle/ does not have (a history from before its squash into one baseline): ` +
      "migrate a new database instead; for the one `npm start` keeps, stop it and delete .data/postgres (or PIX_DATA_DIR's postgres/)",
  );
}
