// Database round trips per saga path, counted on the driver: the budget is one per step and
// at most three on the happy path (CONTRACT §4 paths through the saga runner).
import { env } from "cloudflare:test";
import { describe, expect } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import type { Queryable } from "../../src/db/queryable.ts";
import { sleep } from "../../src/lib/sleep.ts";
import { providerFor } from "../../src/provider/select.ts";
import { advance, type SagaPorts } from "../../src/saga-runtime/advance.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { openTransfer } from "../../src/transfers/store.ts";
import { fundedAccount } from "../support/api.ts";
import { poolTest } from "../support/pool-test.ts";
import { openDefaults } from "../support/saga.ts";

const it = poolTest(3);

function counting(db: Queryable): Queryable & { count: number } {
  const counter = {
    count: 0,
    query<Row extends Record<string, unknown>>(text: string, values?: unknown[]) {
      counter.count++;
      return db.query<Row>(text, values);
    },
  };
  return counter;
}

async function open(db: Queryable, accountId: string, amountCents: number, pixKey: string): Promise<SagaRecord | null> {
  const opened = await openTransfer(db, {
    id: crypto.randomUUID(),
    accountId,
    amountCents,
    pixKey,
    pixKeyType: "email",
    description: null,
    idempotencyKey: crypto.randomUUID(),
    requestFingerprint: "fp",
    deadlineMs: 60_000,
    ...openDefaults(),
  });
  return opened.outcome === "created" && opened.saga.state === "funds_reserved" ? opened.saga : null;
}

/** A transfer opened with its hold, from an account funded for it: where every path but a refusal starts. */
async function reserved(db: Queryable, pixKey: string): Promise<SagaRecord> {
  const saga = await open(db, await fundedAccount(10_000), 100, pixKey);
  if (!saga) throw new Error("not reserved");
  return saga;
}

function ports(db: Queryable): SagaPorts {
  return { db, provider: providerFor(env), timings: readSagaTimings(env), rules: readRuleSettings(env), nowMs: () => Date.now() };
}

describe("round trips per saga path", () => {
  it("happy path: 3 (open with hold, submitted, settled)", async ({ pool }) => {
    const db = counting(pool);
    const saga = await reserved(db, "silent@sandbox.test");
    const submitted = await advance(ports(db), saga, { cause: "alarm" });
    expect(submitted.state).toBe("submitted");
    await sleep(300); // the sandbox confirms after SANDBOX_CONFIRM_MS
    const completed = await advance(ports(db), submitted, { cause: "poke" });
    expect(completed.state).toBe("completed");
    expect(db.count).toBe(3);
  });

  it("rejected by the provider: 2 (open with hold, compensated with release)", async ({ pool }) => {
    const db = counting(pool);
    const saga = await reserved(db, "reject@sandbox.test");
    const done = await advance(ports(db), saga, { cause: "alarm" });
    expect(done.state).toBe("compensated");
    expect(db.count).toBe(2);
  });

  it("insufficient funds: 1", async ({ pool }) => {
    const db = counting(pool);
    const saga = await open(db, await fundedAccount(50), 100, "silent@sandbox.test");
    expect(saga).toBeNull();
    expect(db.count).toBe(1);
  });

  it("a duplicate trigger on a finished saga: 0, nothing written", async ({ pool }) => {
    const db = counting(pool);
    const saga = await reserved(db, "reject@sandbox.test");
    const done = await advance(ports(db), saga, { cause: "alarm" });
    const before = db.count;
    expect(await advance(ports(db), done, { cause: "poke" })).toEqual(done);
    expect(db.count - before).toBe(0);
  });
});
