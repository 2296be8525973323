// npm start's overrides (scripts/lib/contract-vars.ts): every numeric variable of CONTRACT §1
// set in its environment reaches the Worker, so a black-box run can shorten a delay or move a
// limit without editing a file.
import { describe, expect, it } from "vitest";
import { contractVariableNames } from "../../scripts/lib/contract-vars.ts";
import { tunables } from "../../src/config/tunables.ts";

describe("npm start's contract variables", () => {
  it("pass every tunable set in the environment through to the Worker", () => {
    const passed = new Set<string>(contractVariableNames);
    expect(Object.keys(tunables).filter((name) => !passed.has(name))).toEqual([]);
  });
});
