// `--what-if=<file.sql>`: SQL run on the bench's database after its migrations (a constraint
// dropped, a function replaced), so every section measures the schema as that file leaves it.
// It answers "what would the targets read without this?", the sql section's BENCH_SQL_PRELUDE
// question asked of the whole stack. Such a run is not a run for the targets: it writes
// bench/results-what-if.json, and bench/results.json stays the last real run's.
import { readFile } from "node:fs/promises";
import pg from "pg";

export interface WhatIf {
  /** The file as given on the command line, for the log. */
  path: string;
  sql: string;
}

export async function readWhatIf(argv: readonly string[]): Promise<WhatIf | null> {
  const given = argv.find((arg) => arg.startsWith("--what-if="))?.slice("--what-if=".length);
  if (given === undefined) return null;
  if (given === "") throw new Error("--what-if needs a file of SQL, e.g. --what-if=bench/what-if/no-table-checks.sql");
  return { path: given, sql: await readFile(given, "utf8") };
}

export async function applyWhatIf(databaseUrl: string, whatIf: WhatIf): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(whatIf.sql);
  } finally {
    await client.end();
  }
}
