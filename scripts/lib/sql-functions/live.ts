// The functions a database holds now, as pg_get_functiondef() prints them: what the migrator
// compares drizzle/functions/ with. Functions an extension owns (pg_stat_statements and the
// like, which Neon may install in `public`) are the extension's, never ours to replace or drop;
// aggregates and procedures are not functions drizzle/functions/ holds (pg_get_functiondef
// refuses an aggregate).
import { type FunctionDefinition, parseDefinition } from "./definition.ts";

/** One session (node-postgres or the Neon driver's Client): BEGIN and COMMIT must reach the same connection. */
export interface SqlSession {
  query(text: string): Promise<{ rows: unknown[] }>;
}

const definitionRow = (row: unknown): string =>
  typeof row === "object" && row !== null && "definition" in row && typeof row.definition === "string" ? row.definition : "";

export async function readLiveFunctions(session: SqlSession): Promise<Map<string, FunctionDefinition>> {
  const { rows } = await session.query(
    `SELECT pg_get_functiondef(p.oid) AS definition
       FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace AND p.prokind = 'f'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')`,
  );
  const live = new Map<string, FunctionDefinition>();
  for (const row of rows) {
    const definition = parseDefinition(definitionRow(row));
    if (definition !== null) live.set(definition.name, definition);
  }
  return live;
}
