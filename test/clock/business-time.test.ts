// Business time in code (src/clock/business-time.ts): the offset is read only with the sandbox
// on, in one statement, and never with it off (CONTRACT §1: test seams exist only then).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import { businessNowMs } from "../../src/clock/business-time.ts";
import type { Queryable } from "../../src/db/queryable.ts";
import worker from "../../src/worker.ts";
import { clientHeaders } from "../support/api.ts";
import { advanceClock } from "../support/clock.ts";
import { testPool } from "../support/db.ts";
import { saoPauloDayFromToday, scheduledBody } from "../support/schedule.ts";

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

describe("a route whose business time cannot be read", () => {
  /** The Worker over a database no one listens on: the clock read is the first statement that fails. */
  async function withoutDatabase(path: string, init: RequestInit): Promise<Response> {
    const ctx = createExecutionContext();
    const unreachable: Env = { ...env, DATABASE_URL: "postgres://pix:pix@127.0.0.1:9/pix_nowhere" };
    const response = await worker.fetch(new Request(`http://pix.test${path}`, init), unreachable, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  }

  it("answers a schedule 503 with Retry-After, not 500, and writes nothing", async () => {
    const accountId = `clock-${crypto.randomUUID().slice(0, 12)}`;
    const idempotencyKey = crypto.randomUUID();
    const response = await withoutDatabase("/v1/transfers", {
      method: "POST",
      headers: await clientHeaders(accountId, { "idempotency-key": idempotencyKey }),
      // Scheduling judges the day at the edge, so it reads business time before anything else.
      body: JSON.stringify(scheduledBody(saoPauloDayFromToday(2))),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ type: expect.stringMatching(/unavailable$/) });
    const { rows } = await pool.query("SELECT 1 FROM transfers WHERE idempotency_key = $1", [idempotencyKey]);
    expect(rows).toEqual([]);
  });

  it("answers a trusted recipient's PUT 503 with Retry-After, not 500, and writes nothing", async () => {
    const accountId = `clock-${crypto.randomUUID().slice(0, 12)}`;
    // Its wait starts at business time, read before anything is written.
    const response = await withoutDatabase("/v1/trusted-recipients/10000000108?type=cpf", {
      method: "PUT",
      headers: await clientHeaders(accountId),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    const { rows } = await pool.query("SELECT 1 FROM trusted_recipients WHERE account_id = $1", [accountId]);
    expect(rows).toEqual([]);
  });
});
