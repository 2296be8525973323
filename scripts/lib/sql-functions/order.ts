// Orders definitions so that each comes after the functions it calls: LANGUAGE sql bodies are
// checked against the catalog when created, so a callee must exist first.
import type { FunctionDefinition } from "./definition.ts";

function calls(caller: FunctionDefinition, callee: string): boolean {
  return caller.name !== callee && new RegExp(`\\b${callee}\\s*\\(`, "i").test(caller.statement);
}

export function inCallOrder(definitions: readonly FunctionDefinition[]): FunctionDefinition[] {
  const pending = definitions.toSorted((a, b) => a.name.localeCompare(b.name));
  const ordered: FunctionDefinition[] = [];
  while (pending.length > 0) {
    const index = pending.findIndex((candidate) => !pending.some((other) => calls(candidate, other.name)));
    if (index === -1) throw new Error(`functions call each other in a cycle: ${pending.map((d) => d.name).join(", ")}`);
    ordered.push(...pending.splice(index, 1));
  }
  return ordered;
}
