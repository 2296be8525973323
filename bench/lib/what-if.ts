// `--what-if=<file.sql>`: SQL run on the bench's database after its migrations (a constraint
// dropped, a function replaced), so every section measures the schema as that file leaves it
// (the sql section's BENCH_SQL_PRELUDE database too). It answers "what would the targets read
// without this?", the sql section's BENCH_SQL_PRELUDE question asked of the whole stack. Such a
// run is not a run for the targets: it writes bench/results-what-if.json, and bench/results.json
// stays the last real run's.
import { readFile } from "node:fs/promises";
import pg from "pg";

export interface WhatIf {
  /** The file as given on the command line (a path from the repository root), for the log. */
  path: string;
  sql: string;
}

const usage = "--what-if needs a file of SQL, e.g. --what-if=bench/what-if/no-table-checks.sql";

export async function readWhatIf(argv: readonly string[]): Promise<WhatIf | null> {
  // `--what-if file` (no `=`) would otherwise run a plain bench of minutes and write results.json.
  if (argv.includes("--what-if")) throw new Error(usage);
  const given = argv.filter((arg) => arg.startsWith("--what-if=")).map((arg) => arg.slice("--what-if=".length));
  if (given.length === 0) return null;
  if (given.length > 1) throw new Error("--what-if is given more than once: put the SQL in one file");
  const [path = ""] = given;
  if (path === "") throw new Error(usage);
  try {
    return { path, sql: await readFile(path, "utf8") };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`--what-if: cannot read ${path} (from ${process.cwd()}): ${reason}`, { cause: error });
  }
}

export async function applyWhatIf(databaseUrl: string, whatIf: WhatIf): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(whatIf.sql);
  } catch (error) {
    throw new Error(`--what-if ${whatIf.path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    await client.end();
  }
}
