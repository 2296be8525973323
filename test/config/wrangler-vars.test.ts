// wrangler.toml writes each value once: an environment inherits no vars from the top level, so a
// value production and [env.local] share is a default in src/config/tunables.ts, not a var written
// in both tables (a name in both differs per environment, as DEPLOYMENT does); and a var equal to
// its default would be a second place for it.
import { describe, expect, it } from "vitest";
import { tunables } from "../../src/config/tunables.ts";
import { varsTables } from "../api/wrangler-config.ts";

const tables = varsTables();

describe("wrangler.toml's variables", () => {
  it("are read from the file: the local environment turns the sandbox on", () => {
    expect(tables.get("env.local.vars")?.get("SANDBOX_PROVIDER")).toBe("on");
  });

  it("never repeat a variable's value in two tables", () => {
    const seen = new Map<string, string>();
    const repeated: string[] = [];
    for (const [table, vars] of tables) {
      for (const [name, value] of vars) {
        const entry = `${name} = ${value}`;
        const first = seen.get(entry);
        if (first !== undefined) repeated.push(`${entry} in [${first}] and [${table}]`);
        seen.set(entry, table);
      }
    }
    expect(repeated).toEqual([]);
  });

  it("set a numeric variable only to differ from its default", () => {
    const restated: string[] = [];
    for (const [table, vars] of tables) {
      for (const [name, value] of vars) {
        const tunable = name in tunables ? tunables[name as keyof typeof tunables] : undefined;
        if (tunable !== undefined && Number(value) === tunable.fallback) restated.push(`${name} = ${value} in [${table}]`);
      }
    }
    expect(restated).toEqual([]);
  });
});
