// `npm run db:migrate`: apply migrations and functions to the database (a Neon branch in production).
// DATABASE_URL_UNPOOLED (Neon's direct endpoint) when set, else DATABASE_URL: the migrator holds
// a session advisory lock so two runs never apply at once, and a transaction-mode pooler (Neon's
// pooled endpoint, PgBouncer) hands each statement to whatever server connection is free, so
// the lock would be taken and released on connections that are not the migrator's.
import { applyMigrations } from "./lib/migrate.ts";

const databaseUrl = process.env.DATABASE_URL_UNPOOLED || process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("neither DATABASE_URL_UNPOOLED nor DATABASE_URL is set");
  process.exit(2);
}
const { migrationsApplied, functions } = await applyMigrations(databaseUrl);
const list = (names: string[]) => names.join(", ") || "none";
console.log(
  `migrations applied: ${migrationsApplied}; functions created or replaced: ${list(functions.changed)}; dropped: ${list(functions.dropped)}`,
);
