// Reads drizzle/functions/: one file per function, named after it, holding its live definition.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { type FunctionDefinition, parseDefinition } from "./definition.ts";

export async function readFunctionSources(functionsDir: string): Promise<Map<string, FunctionDefinition>> {
  const sources = new Map<string, FunctionDefinition>();
  const files = (await readdir(functionsDir)).filter((file) => file.endsWith(".sql")).sort();
  for (const file of files) {
    const text = await readFile(path.join(functionsDir, file), "utf8");
    const definition = parseDefinition(text);
    const expected = path.basename(file, ".sql");
    if (definition === null || definition.name !== expected) {
      throw new Error(`drizzle/functions/${file}: must hold one CREATE OR REPLACE FUNCTION public.${expected}(...)`);
    }
    if (!text.trimEnd().endsWith("$function$;")) {
      throw new Error(`drizzle/functions/${file}: the body is quoted $function$ ... $function$; (as pg_get_functiondef prints it)`);
    }
    sources.set(definition.name, definition);
  }
  return sources;
}
