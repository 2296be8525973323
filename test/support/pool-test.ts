// The test database's pool for the files that query it directly: one pool per file, ended
// after the file's last test. `filePool` is the pool itself, for files whose helpers and hooks
// use it; `poolTest` is an `it` with the pool as a fixture, opened for the first test that asks.
//
//   const pool = filePool(3);                            // at most 3 connections
//   const it = poolTest(3);
//   it("holds funds", async ({ pool }) => { ... });
import type { Pool } from "@neondatabase/serverless";
import { afterAll, test } from "vitest";
import { testPool } from "./db.ts";

/** One line instead of a `let`, a beforeAll and an afterAll in every file that needs a pool. */
export function filePool(maxConnections: number): Pool {
  const pool = testPool(maxConnections);
  afterAll(() => pool.end());
  return pool;
}

export function poolTest(maxConnections: number) {
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; the pool has none.
  return test.extend("pool", { scope: "file" }, async ({}, { onCleanup }) => {
    const pool = testPool(maxConnections);
    onCleanup(() => pool.end());
    return pool;
  });
}
