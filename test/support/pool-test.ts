// `it` with the test database's pool as a fixture, for the files that query it directly: one
// pool per file, opened for the first test that asks for it and ended after the file's last.
//
//   const it = poolTest(3);                              // at most 3 connections
//   it("holds funds", async ({ pool }) => { ... });
import { test } from "vitest";
import { testPool } from "./db.ts";

export function poolTest(maxConnections: number) {
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; the pool has none.
  return test.extend("pool", { scope: "file" }, async ({}, { onCleanup }) => {
    const pool = testPool(maxConnections);
    onCleanup(() => pool.end());
    return pool;
  });
}
