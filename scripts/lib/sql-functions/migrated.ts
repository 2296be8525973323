// What the numbered migrations define, replayed in journal order: the last CREATE of each
// function wins and a DROP FUNCTION removes it.
//
// Why compare with the migrations (and not a hash file or a live database): the migrations are
// exactly what every database runs, in order, so "the last definition a migration gives" is
// what a migrated database holds. Nothing else has to be kept in step, two branches that change
// different functions merge without a manifest conflict, and the check needs no database.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { type FunctionDefinition, parseDefinition } from "./definition.ts";

const journalSchema = z.object({ entries: z.array(z.object({ idx: z.number(), tag: z.string() })) });

const dropPattern = /^DROP FUNCTION (?:IF EXISTS )?(?:public\.)?([a-z_][a-z0-9_]*)\s*\(/i;

export async function migrationTags(migrationsDir: string): Promise<string[]> {
  const journal = journalSchema.parse(JSON.parse(await readFile(path.join(migrationsDir, "meta/_journal.json"), "utf8")));
  return journal.entries.toSorted((a, b) => a.idx - b.idx).map((entry) => entry.tag);
}

export async function readMigratedFunctions(migrationsDir: string): Promise<Map<string, FunctionDefinition>> {
  const defined = new Map<string, FunctionDefinition>();
  for (const tag of await migrationTags(migrationsDir)) {
    const text = await readFile(path.join(migrationsDir, `${tag}.sql`), "utf8");
    for (const statement of text.split("--> statement-breakpoint")) {
      const definition = parseDefinition(statement);
      if (definition !== null) {
        defined.set(definition.name, definition);
        continue;
      }
      const dropped = dropPattern.exec(statement.trim().replace(/^(--.*\n)+/, ""))?.[1];
      if (dropped !== undefined) defined.delete(dropped.toLowerCase());
    }
  }
  return defined;
}
