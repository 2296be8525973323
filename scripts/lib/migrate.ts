// Applies the schema with node-postgres, the same runner for local, tests and Neon: the numbered
// drizzle/ migrations (tables, constraints, triggers, data), and around them the functions of
// drizzle/functions/, which are definitions rather than history (scripts/lib/sql-functions/apply.ts).
// One transaction: a database never holds new tables with old functions, or the reverse.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { applyNumberedMigrations } from "./numbered-migrations.ts";
import { applyFunctions, createMissingFunctions, inTransaction } from "./sql-functions/apply.ts";
import type { FunctionPlan } from "./sql-functions/plan.ts";
import { readFunctionSources } from "./sql-functions/sources.ts";

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

export interface MigrationResult {
  migrationsApplied: number;
  functions: FunctionPlan;
}

export async function applyMigrations(databaseUrl: string): Promise<MigrationResult> {
  const sources = await readFunctionSources(path.join(migrationsFolder, "functions"));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Migrations from several processes at once would race; one advisory lock serialises them.
    await client.query("SELECT pg_advisory_lock(727274)");
    return await inTransaction(client, async () => {
      const createdUnchecked = await createMissingFunctions(client, sources);
      const migrationsApplied = await applyNumberedMigrations(client, readMigrationFiles({ migrationsFolder }));
      return { migrationsApplied, functions: await applyFunctions(client, sources, createdUnchecked) };
    });
  } finally {
    await client.end();
  }
}
