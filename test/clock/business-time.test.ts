// Business time in code (src/clock/business-time.ts): the offset is read only with the sandbox
// on, in one statement, and never with it off (CONTRACT §1: test seams exist only then).
import { afterAll, describe, expect, it } from "vitest";
import { businessNowMs } from "../../src/clock/business-time.ts";
import type { Queryable } from "../../src/db/queryable.ts";
import { advanceClock } from "../support/clock.ts";
import { testPool } from "../support/db.ts";

const pool = testPool(1);
afterAll(() => pool.end());

/** The real database, counting the statements sent to it. */
function counted(): { db: Queryable; statements: () => number } {
  let statements = 0;
  const db: Queryable = {
    query: (text, values) => {
      statements += 1;
      return pool.query(text, values);
    },
  };
  return { db, statements: () => statements };
}

describe("businessNowMs", () => {
  it("is the wall clock plus the offset with the sandbox on, in one statement", async () => {
    const { offset_ms: offsetMs } = await advanceClock(86_400_000);
    const { db, statements } = counted();
    const before = Date.now();
    const nowMs = await businessNowMs(db, { sandboxEnabled: true });
    expect(nowMs).toBeGreaterThanOrEqual(before + offsetMs);
    expect(nowMs).toBeLessThanOrEqual(Date.now() + offsetMs);
    expect(statements()).toBe(1);
  });

  it("is the wall clock with the sandbox off, without reading the offset", async () => {
    await advanceClock(86_400_000);
    const { db, statements } = counted();
    const before = Date.now();
    const nowMs = await businessNowMs(db, { sandboxEnabled: false });
    expect(nowMs).toBeGreaterThanOrEqual(before);
    expect(nowMs).toBeLessThanOrEqual(Date.now());
    expect(statements()).toBe(0);
  });
});
