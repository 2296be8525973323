// A replay never waits behind the account's lock (CONTRACT §2: concurrent requests with one
// key get the replay or 409; the README promises the replay). The account is kept busy
// deterministically: the test holds its row lock, as another transfer's open transaction would.
import type { PoolClient } from "@neondatabase/serverless";
import { describe, expect, it } from "vitest";
import { transferSchema } from "../../src/contract/schemas.ts";
import { sleep } from "../../src/lib/sleep.ts";
import { call, clientHeaders, fundedAccount } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { validTransfer } from "./helpers.ts";

const pool = filePool(3);

const replayCount = 8;
const waitStepMs = 10;
/** Far under the function's 5 s lock_timeout: waits end on a condition, this only bounds a broken run. */
const waitMsMax = 20_000;

async function post(accountId: string, idempotencyKey: string): Promise<Response> {
  return call("/v1/transfers", {
    method: "POST",
    headers: await clientHeaders(accountId, { "idempotency-key": idempotencyKey }),
    body: JSON.stringify(validTransfer),
  });
}

async function holdAccountLock(accountId: string): Promise<PoolClient> {
  const client = await pool.connect();
  await client.query("BEGIN");
  await client.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [accountId]);
  return client;
}

async function release(lock: PoolClient): Promise<void> {
  await lock.query("ROLLBACK");
  lock.release();
}

/** Saga backends waiting on a lock now, by kind (`tuple`/`transactionid` for a row, `advisory`). */
async function sagaLockWaits(): Promise<string[]> {
  const { rows } = await pool.query<{ wait_event: string }>(
    "SELECT wait_event FROM pg_stat_activity WHERE application_name = 'pix-saga' AND wait_event_type = 'Lock'",
  );
  return rows.map((r) => r.wait_event);
}

async function waitUntil(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let waitedMs = 0; waitedMs < waitMsMax; waitedMs += waitStepMs) {
    if (await condition()) return;
    await sleep(waitStepMs);
  }
  throw new Error(`gave up waiting until ${what}`);
}

describe("replays and the account's lock", () => {
  it("answers replays of a finished request from its first response while the account is locked", async () => {
    const accountId = await fundedAccount(100_000);
    const key = crypto.randomUUID();
    const first = await post(accountId, key);
    expect(first.status).toBe(202);
    const firstBody = await first.text();

    const lock = await holdAccountLock(accountId);
    try {
      // Every replay answers while the lock is still held: none of them asked for it.
      const replays = await Promise.all(Array.from({ length: replayCount }, () => post(accountId, key)));
      for (const replay of replays) {
        expect(replay.status).toBe(202);
        expect(replay.headers.get("idempotent-replayed")).toBe("true");
        expect(await replay.text()).toBe(firstBody);
      }
    } finally {
      await release(lock);
    }
  });

  it("makes a replay that arrives while the first is open wait for that first and answer its replay", async () => {
    const accountId = await fundedAccount(100_000);
    const key = crypto.randomUUID();
    const lock = await holdAccountLock(accountId);
    let released = false;
    let answers: Response[];
    try {
      const first = post(accountId, key);
      await waitUntil(async () => (await sagaLockWaits()).length === 1, "the first request waits for the account");
      const replays = Array.from({ length: replayCount }, () => post(accountId, key));
      // The replays queue behind the first request's key, not behind the account.
      await waitUntil(
        async () => (await sagaLockWaits()).filter((wait) => wait === "advisory").length === replayCount,
        "every replay waits for the first request",
      );
      await release(lock);
      released = true;
      answers = await Promise.all([first, ...replays]);
    } finally {
      if (!released) await release(lock);
    }
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    expect(answers.map((answer) => answer.status)).toEqual(Array(replayCount + 1).fill(202));
    expect(answers.filter((answer) => answer.headers.get("idempotent-replayed") === "true")).toHaveLength(replayCount);
    expect(new Set(bodies).size).toBe(1);
    expect(transferSchema.parse(JSON.parse(bodies[0] ?? "")).state).toBe("funds_reserved");
    const { rows } = await pool.query<{ n: string }>("SELECT count(*)::text AS n FROM transfers WHERE account_id = $1", [accountId]);
    expect(rows[0]?.n).toBe("1");
  });
});
