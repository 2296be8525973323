// Brings a database's functions to drizzle/functions/, in two passes around the numbered
// migrations, so that no migration has to restate a function body. Both run inside the
// migrator's one transaction (scripts/lib/migrate.ts): tables and functions commit together or
// not at all, and nothing is left created but unchecked.
//
// 1. Before the migrations, each function the database lacks is created with
//    check_function_bodies off (as pg_dump restores functions before tables): a migration's
//    trigger or CHECK can then name a function whose body reads tables the same run creates.
//    A function whose signature names a table type (`transfer_saga_json(t transfers)`) cannot
//    exist before its table and waits for the second pass.
// 2. After them, every new or changed function is created, with bodies checked against the
//    migrated tables, together with those the first pass created unchecked; functions without
//    a file are dropped.
import type { FunctionDefinition } from "./definition.ts";
import { readLiveFunctions, type SqlSession } from "./live.ts";
import { inCallOrder } from "./order.ts";
import { type FunctionPlan, planFunctions } from "./plan.ts";

/** SQLSTATE 42704 undefined_object: a type in the signature (a table's row type) does not exist yet. */
const undefinedObject = "42704";

function sqlState(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

export async function inTransaction<T>(session: SqlSession, work: () => Promise<T>): Promise<T> {
  await session.query("BEGIN");
  try {
    const result = await work();
    await session.query("COMMIT");
    return result;
  } catch (error) {
    await session.query("ROLLBACK");
    throw error;
  }
}

/** Pass 1, inside the caller's transaction: creates the missing functions, bodies unchecked; returns their names. */
export async function createMissingFunctions(session: SqlSession, sources: ReadonlyMap<string, FunctionDefinition>): Promise<Set<string>> {
  const live = await readLiveFunctions(session);
  const missing = inCallOrder([...sources.values()].filter((source) => !live.has(source.name)));
  const { rows } = await session.query("SELECT current_setting('check_function_bodies') AS setting");
  const before = rows[0] !== null && typeof rows[0] === "object" && "setting" in rows[0] ? String(rows[0].setting) : "on";
  await session.query("SELECT set_config('check_function_bodies', 'off', true)");
  const created = new Set<string>();
  for (const source of missing) {
    await session.query("SAVEPOINT create_function");
    try {
      await session.query(source.statement);
      await session.query("RELEASE SAVEPOINT create_function");
      created.add(source.name);
    } catch (error) {
      if (sqlState(error) !== undefinedObject) throw error;
      await session.query("ROLLBACK TO SAVEPOINT create_function");
    }
  }
  await session.query(`SELECT set_config('check_function_bodies', '${before === "off" ? "off" : "on"}', true)`);
  return created;
}

/** Pass 2, inside the caller's transaction: every function exactly as its file, bodies checked; `recheck` names pass 1's. */
export async function applyFunctions(
  session: SqlSession,
  sources: ReadonlyMap<string, FunctionDefinition>,
  recheck: ReadonlySet<string>,
): Promise<FunctionPlan> {
  const live = await readLiveFunctions(session);
  for (const name of recheck) live.delete(name);
  const plan = planFunctions(sources, live);
  for (const statement of plan.statements) await session.query(statement);
  return plan;
}
