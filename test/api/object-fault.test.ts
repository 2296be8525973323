// An object reset mid-call (a deploy does this to live objects) is a fault of ours, never the
// client's: the route answers 503 problem+json with Retry-After, and the retry with the same
// Idempotency-Key gets the one transfer. The call is held inside the object deterministically:
// the test holds the account's row lock, so the object's transfer_open waits on it in Postgres
// until the test aborts every object.
import { abortAllDurableObjects } from "cloudflare:test";
import type { PoolClient } from "@neondatabase/serverless";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { call, clientHeaders, fundedAccount } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { expectProblem, validTransfer } from "./helpers.ts";

const pool = filePool(3);

/** Backends of saga objects waiting on a lock right now. */
async function sagaLockWaiters(): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE application_name = 'pix-saga' AND wait_event_type = 'Lock'",
  );
  return rows.map((r) => r.pid);
}

async function holdAccountLock(accountId: string): Promise<PoolClient> {
  const client = await pool.connect();
  await client.query("BEGIN");
  await client.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [accountId]);
  return client;
}

/**
 * Aborts every object each time a new saga backend starts waiting for the lock, until
 * `answer` settles: the Worker may retry a retryable fault once, and that retry waits too.
 */
async function abortWhileWaiting(answer: Promise<Response>): Promise<Response> {
  let settled = false;
  void answer.finally(() => {
    settled = true;
  });
  const aborted = new Set<number>();
  const waitStepMs = 10;
  const waitMsMax = 20_000;
  for (let waitedMs = 0; !settled && waitedMs < waitMsMax; waitedMs += waitStepMs) {
    const fresh = (await sagaLockWaiters()).filter((pid) => !aborted.has(pid));
    if (fresh.length > 0) {
      for (const pid of fresh) aborted.add(pid);
      await abortAllDurableObjects();
    }
    await sleep(waitStepMs);
  }
  expect(aborted.size, "no saga backend ever waited on the held lock").toBeGreaterThan(0);
  return answer;
}

describe("an object reset in the middle of POST /v1/transfers", () => {
  it("answers 503 with Retry-After, and the retry with the same key answers the one transfer", async () => {
    const accountId = await fundedAccount(100_000);
    const idempotencyKey = crypto.randomUUID();
    const send = async () =>
      call("/v1/transfers", {
        method: "POST",
        headers: await clientHeaders(accountId, { "idempotency-key": idempotencyKey }),
        body: JSON.stringify(validTransfer),
      });

    const lock = await holdAccountLock(accountId);
    let interrupted: Response;
    try {
      interrupted = await abortWhileWaiting(send());
    } finally {
      await lock.query("ROLLBACK");
      lock.release();
    }
    expect(interrupted.headers.get("retry-after")).toBe("1");
    const problem = await expectProblem(interrupted, 503, "unavailable");
    expect(problem.detail).toContain("same Idempotency-Key");

    // The aborted object's transaction may still commit once the lock is free; either way the
    // retry answers with exactly one transfer.
    const retried = await send();
    expect(retried.status).toBe(202);
    const { rows } = await pool.query<{ n: string }>("SELECT count(*)::text AS n FROM transfers WHERE account_id = $1", [accountId]);
    expect(rows[0]?.n).toBe("1");
  });
});
