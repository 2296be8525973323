// What brings a database's functions up to the source files: a CREATE OR REPLACE for each new or
// changed function (a DROP first when its arguments or return type changed, which CREATE OR
// REPLACE cannot do), and a DROP for each function whose file was deleted.
import { argumentsOf, type FunctionDefinition } from "./definition.ts";
import { inCallOrder } from "./order.ts";

export interface FunctionPlan {
  changed: string[];
  dropped: string[];
  statements: string[];
}

const dropOf = (definition: FunctionDefinition) => `DROP FUNCTION public.${definition.name}(${argumentsOf(definition.signature)})`;

export function planFunctions(
  sources: ReadonlyMap<string, FunctionDefinition>,
  live: ReadonlyMap<string, FunctionDefinition>,
): FunctionPlan {
  const changed = [...sources.values()].filter((source) => live.get(source.name)?.statement !== source.statement);
  const dropped = [...live.values()].filter((definition) => !sources.has(definition.name));
  const statements: string[] = dropped.map(dropOf);
  for (const source of inCallOrder(changed)) {
    const before = live.get(source.name);
    if (before !== undefined && before.signature !== source.signature) statements.push(dropOf(before));
    statements.push(source.statement);
  }
  return { changed: changed.map((d) => d.name).sort(), dropped: dropped.map((d) => d.name).sort(), statements };
}
