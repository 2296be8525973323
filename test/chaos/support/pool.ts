// The pool of a chaos file that injects database faults.
import type { Pool } from "@neondatabase/serverless";
import { afterEach } from "vitest";
import { clearDbFaults } from "../../support/faults.ts";
import { filePool } from "../../support/pool-test.ts";

/** A fault left on by a failing test would fail every test after it: each test ends with none. */
export function faultedFilePool(maxConnections: number): Pool {
  afterEach(() => clearDbFaults());
  return filePool(maxConnections);
}
