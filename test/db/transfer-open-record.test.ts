// transfer_open takes one record whose fields are named, not 15 values in an order two languages
// must agree on: the TypeScript caller's record opens a transfer, and a record missing a field
// (a name misspelled on either side) is refused before anything is written.
import { describe, expect, it } from "vitest";
import { filePool } from "../support/pool-test.ts";
import { ledgerAccount, openWithoutObject } from "../support/saga.ts";

const pool = filePool(1);

describe("transfer_open's record", () => {
  it("opens a transfer from the record src/transfers/store.ts builds", async () => {
    const accountId = await ledgerAccount(pool, 10_000);
    const saga = await openWithoutObject(pool, accountId, 1_000);
    const { rows } = await pool.query<{ amount_cents: string; state: string }>("SELECT amount_cents, state FROM transfers WHERE id = $1", [
      saga.id,
    ]);
    expect(rows).toEqual([{ amount_cents: "1000", state: saga.state }]);
  });

  it("refuses a record that lacks a field, and writes nothing", async () => {
    const accountId = await ledgerAccount(pool, 10_000);
    const id = crypto.randomUUID();
    // Every field but `fingerprint`, named as a caller that got it wrong would name it.
    const record = {
      id,
      account_id: accountId,
      amount_cents: 1_000,
      pix_key: "100.000.001-08",
      pix_key_type: "cpf",
      description: null,
      idempotency_key: crypto.randomUUID(),
      request_fingerprint: "test",
      deadline_ms: 60_000,
      local_day: "2026-12-02",
      local_minute: 600,
      rules: {},
      br_code: null,
      scheduled_for: null,
      run_at_ms: null,
      device_id: null,
    };
    await expect(pool.query("SELECT transfer_open($1::jsonb)", [JSON.stringify(record)])).rejects.toThrow(
      /transfer_open: the record lacks a field/,
    );
    const { rows } = await pool.query("SELECT 1 FROM transfers WHERE id = $1", [id]);
    expect(rows).toHaveLength(0);
  });
});
