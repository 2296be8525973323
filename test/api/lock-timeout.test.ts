// A wait behind a stuck writer ends (CONTRACT: a fault of ours is 503 with Retry-After, never a
// 500): every SQL function that writes bounds its lock waits (lock_timeout 5 s), and the API
// answers a wait that ran out as "nothing was written, retry the same request".
import { describe, expect, it } from "vitest";
import { getBalance, opsCall } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";
import { filePool } from "../support/pool-test.ts";
import { expectProblem } from "./helpers.ts";

const pool = filePool(1);

describe("a lock wait that runs out", () => {
  it("answers 503 with Retry-After and writes nothing; the same request then applies", async () => {
    const accountId = uniqueAccountId();
    expect((await opsCall(`/ops/accounts/${accountId}`, { method: "PUT" })).status).toBe(201);
    const body = JSON.stringify({ amount_cents: 700, idempotency_key: "k" });
    // A writer that holds the account's row and does not finish.
    const stuck = await pool.connect();
    try {
      await stuck.query("BEGIN");
      await stuck.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [accountId]);
      const waited = await opsCall(`/ops/accounts/${accountId}/credits`, { method: "POST", body });
      await expectProblem(waited, 503, "unavailable");
      expect(waited.headers.get("retry-after")).toBe("1");
    } finally {
      await stuck.query("ROLLBACK");
      stuck.release();
    }
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 0 });
    expect((await opsCall(`/ops/accounts/${accountId}/credits`, { method: "POST", body })).status).toBe(200);
  });
});
