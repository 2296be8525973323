// Applies drizzle/ migrations with node-postgres: the same runner for local, tests and Neon.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

export async function applyMigrations(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Migrations from several processes at once would race; one advisory lock serialises them.
    await client.query("SELECT pg_advisory_lock(727274)");
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.end();
  }
}
