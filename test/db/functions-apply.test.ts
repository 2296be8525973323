// The migrator's two passes over drizzle/functions/ (scripts/lib/sql-functions/apply.ts), on a
// scratch database of the test server: what a migration needs exists before the tables do,
// bodies are checked once the tables exist, a changed file replaces its function (a changed
// signature by DROP then CREATE), a deleted file drops it, and a bad set changes nothing
// (the migrator's transaction rolls back).
import { describe, expect, it } from "vitest";
import { applyFunctions, createMissingFunctions, inTransaction } from "../../scripts/lib/sql-functions/apply.ts";
import { type FunctionDefinition, parseDefinition } from "../../scripts/lib/sql-functions/definition.ts";
import { readLiveFunctions } from "../../scripts/lib/sql-functions/live.ts";
import { scratchDatabase } from "../support/scratch-database.ts";

const scratch = scratchDatabase("functions_apply");

function definitions(...statements: string[]): Map<string, FunctionDefinition> {
  const parsed = statements.map((statement) => parseDefinition(statement));
  return new Map(parsed.flatMap((definition) => (definition === null ? [] : [[definition.name, definition] as const])));
}

async function liveStatements(): Promise<Record<string, string>> {
  return Object.fromEntries([...(await readLiveFunctions(scratch.session))].map(([name, definition]) => [name, definition.statement]));
}

const widgetCount = (body: string) =>
  `CREATE OR REPLACE FUNCTION public.widget_count()\n RETURNS bigint\n LANGUAGE sql\nAS $function$ ${body} $function$`;
const widgetLabel =
  "CREATE OR REPLACE FUNCTION public.widget_label(w widgets)\n RETURNS text\n LANGUAGE sql\nAS $function$ SELECT w.name $function$";
const widgetsOver = (argumentType: string) =>
  `CREATE OR REPLACE FUNCTION public.widgets_over(p_min ${argumentType})\n RETURNS bigint\n LANGUAGE sql\nAS $function$ SELECT count(*) FROM widgets WHERE length(name) > p_min $function$`;

describe("migrate applies drizzle/functions/ around the migrations", () => {
  const first = definitions(widgetCount("SELECT count(*) FROM widgets"), widgetLabel, widgetsOver("integer"));

  it("creates before the tables what a migration may name, and the rest once its table exists", async () => {
    // As the migrator does it: pass 1, a migration, pass 2, in one transaction.
    const { created, plan } = await inTransaction(scratch.session, async () => {
      const created = await createMissingFunctions(scratch.session, first);
      // What a migration does next: the table, and a CHECK naming a function created above.
      await scratch.session.query("CREATE TABLE widgets (name text NOT NULL CHECK (widget_count() >= 0))");
      return { created, plan: await applyFunctions(scratch.session, first, created) };
    });
    // widget_label's signature names the row type of a table that does not exist yet.
    expect([...created].sort()).toEqual(["widget_count", "widgets_over"]);
    expect(plan.changed).toEqual(["widget_count", "widget_label", "widgets_over"]);
    expect(await liveStatements()).toEqual(Object.fromEntries([...first].map(([name, d]) => [name, d.statement])));
  });

  it("does nothing when the database already holds every file", async () => {
    await inTransaction(scratch.session, async () => {
      expect(await createMissingFunctions(scratch.session, first)).toEqual(new Set());
      expect((await applyFunctions(scratch.session, first, new Set())).statements).toEqual([]);
    });
  });

  it("replaces a changed function, drops a deleted one, and re-creates one whose signature changed", async () => {
    const next = definitions(widgetCount("SELECT count(*) FROM widgets WHERE name <> ''"), widgetsOver("bigint"));
    const plan = await inTransaction(scratch.session, () => applyFunctions(scratch.session, next, new Set()));
    expect(plan.changed).toEqual(["widget_count", "widgets_over"]);
    expect(plan.dropped).toEqual(["widget_label"]);
    expect(await liveStatements()).toEqual(Object.fromEntries([...next].map(([name, d]) => [name, d.statement])));
  });

  it("leaves an extension's functions and any aggregate alone", async () => {
    // Neon may install an extension into `public`; its functions are not ours to drop.
    await scratch.session.query("CREATE EXTENSION pg_stat_statements");
    await scratch.session.query("CREATE AGGREGATE public.widget_max (text) (SFUNC = text_larger, STYPE = text)");
    const next = definitions(widgetCount("SELECT count(*) FROM widgets WHERE name <> ''"), widgetsOver("bigint"));
    expect(await inTransaction(scratch.session, () => applyFunctions(scratch.session, next, new Set()))).toEqual({
      changed: [],
      dropped: [],
      statements: [],
    });
    const { rows } = await scratch.session.query(
      "SELECT count(*)::int AS n FROM pg_proc WHERE proname IN ('pg_stat_statements', 'widget_max')",
    );
    expect(rows).toEqual([{ n: 2 }]);
  });

  it("refuses a body that does not fit the tables, and leaves every function as it was", async () => {
    const before = await liveStatements();
    const broken = definitions(widgetCount("SELECT count(*) FROM gadgets"), widgetsOver("smallint"));
    await expect(inTransaction(scratch.session, () => applyFunctions(scratch.session, broken, new Set()))).rejects.toThrow(/gadgets/);
    expect(await liveStatements()).toEqual(before);
  });
});
