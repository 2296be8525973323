// `npm run db:functions`: regenerates the SQL functions that are derived from TypeScript (the
// transition table of src/saga/states.ts), then writes the migration that brings the database's
// functions up to drizzle/functions/ (one file per function, its live definition). `--check`
// writes nothing and fails when either is due: for CI, so no edit ships without its migration.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readMigratedFunctions } from "./lib/sql-functions/migrated.ts";
import { planFunctionMigration } from "./lib/sql-functions/plan.ts";
import { readFunctionSources } from "./lib/sql-functions/sources.ts";
import { writeTransitionFunction } from "./lib/sql-functions/transitions.ts";
import { writeFunctionMigration } from "./lib/sql-functions/write.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const checkOnly = process.argv.includes("--check");

const functionsDir = path.join(root, "drizzle/functions");
if (await writeTransitionFunction(functionsDir, checkOnly)) {
  console.error(`db:functions: transfer_transition_allowed.sql ${checkOnly ? "differs from" : "regenerated from"} src/saga/states.ts`);
  if (checkOnly) process.exit(1);
}
const sources = await readFunctionSources(functionsDir);
const plan = planFunctionMigration(sources, await readMigratedFunctions(path.join(root, "drizzle")));
if (plan.statements.length === 0) {
  console.log(`db:functions: the migrations define all ${sources.size} functions as drizzle/functions/ does`);
} else if (checkOnly) {
  console.error(
    `db:functions: a migration is due (changed: ${plan.changed.join(", ") || "none"}; dropped: ${plan.dropped.join(", ") || "none"})`,
  );
  console.error("run `npm run db:functions` and commit the migration with the function files");
  process.exitCode = 1;
} else {
  const file = await writeFunctionMigration(root, plan);
  console.log(`db:functions: wrote ${file} (changed: ${plan.changed.join(", ") || "none"}; dropped: ${plan.dropped.join(", ") || "none"})`);
}
