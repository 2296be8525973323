// `npm run db:migrate`: apply migrations to DATABASE_URL (a Neon branch in production).
import { applyMigrations } from "./lib/migrate.ts";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("DATABASE_URL is not set");
  process.exit(2);
}
await applyMigrations(databaseUrl);
console.log("migrations applied");
