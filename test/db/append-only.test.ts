// What is recorded stays recorded (CONTRACT §5): the database itself refuses to change or
// delete an operator action or a transfer's hop, whoever asks, as it does for ledger entries.
import { describe, expect, it } from "vitest";
import { createTransfer, fundedAccount, type TransferJson } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";

const pool = filePool(2);

/** TRUNCATE inside a transaction that is always rolled back: refused or not, nothing is lost. */
async function truncateRefused(table: string): Promise<unknown> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    return await client.query(`TRUNCATE ${table}`).then(
      () => null,
      (error: unknown) => error,
    );
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

describe("append-only records", () => {
  it("refuses UPDATE, DELETE and TRUNCATE of the operators' audit trail", async () => {
    const accountId = await fundedAccount(1_000);
    const count = async () =>
      (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM operator_actions WHERE account_id = $1", [accountId])).rows[0]?.n;
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await expect(pool.query("UPDATE operator_actions SET actor = 'someone-else' WHERE account_id = $1", [accountId])).rejects.toThrow(
      /operator_actions is append-only/,
    );
    await expect(pool.query("DELETE FROM operator_actions WHERE account_id = $1", [accountId])).rejects.toThrow(/append-only/);
    expect(String(await truncateRefused("operator_actions"))).toMatch(/operator_actions is append-only \(TRUNCATE refused\)/);
    expect(await count()).toBe(before);
  });

  it("refuses UPDATE and DELETE of a transfer's history", async () => {
    const accountId = await fundedAccount(10_000);
    const { id } = await (
      await createTransfer(accountId, { amount_cents: 100, pix_key: "10000000108", pix_key_type: "cpf" })
    ).json<TransferJson>();
    await expect(pool.query("UPDATE transfer_history SET reason = 'rewritten' WHERE transfer_id = $1", [id])).rejects.toThrow(
      /transfer_history is append-only/,
    );
    await expect(pool.query("DELETE FROM transfer_history WHERE transfer_id = $1", [id])).rejects.toThrow(/append-only/);
    const { rows } = await pool.query<{ reason: string | null }>("SELECT reason FROM transfer_history WHERE transfer_id = $1", [id]);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.reason)).not.toContain("rewritten");
  });
});
