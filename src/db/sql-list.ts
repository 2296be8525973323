// A list of SQL string literals from constants in the code (never input), for the predicates
// that must carry their values in the SQL text: a CHECK, a partial index's predicate, and the
// query the planner has to match to that index.
export function sqlStringList(values: readonly string[]): string {
  return values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", ");
}
