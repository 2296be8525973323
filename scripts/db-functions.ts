// `npm run db:functions`: regenerates the SQL functions that are derived from TypeScript (the
// transition table of src/saga/states.ts) into drizzle/functions/. `--check` writes nothing and
// fails when the file is due: for CI, so no state machine edit ships without its SQL. The
// database takes drizzle/functions/ as it is at every migrate (scripts/lib/migrate.ts).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readFunctionSources } from "./lib/sql-functions/sources.ts";
import { writeTransitionFunction } from "./lib/sql-functions/transitions.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const checkOnly = process.argv.includes("--check");

const functionsDir = path.join(root, "drizzle/functions");
if (await writeTransitionFunction(functionsDir, checkOnly)) {
  console.error(`db:functions: transfer_transition_allowed.sql ${checkOnly ? "differs from" : "regenerated from"} src/saga/states.ts`);
  if (checkOnly) process.exit(1);
}
// Parsing every file here fails CI on a file the migrator would refuse.
const sources = await readFunctionSources(functionsDir);
console.log(`db:functions: drizzle/functions/ holds ${sources.size} functions, transfer_transition_allowed as src/saga/states.ts says`);
