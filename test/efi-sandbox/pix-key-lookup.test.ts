// With PROVIDER=efi, which publishes no directory lookup: GET /v1/pix-keys/:key is 501
// `/lookup-unsupported`, and the account's lookup budget is untouched.
import { describe, expect, it } from "vitest";
import { call, clientHeaders, fundedAccount } from "../support/api.ts";
import { testPool } from "../support/db.ts";

describe("with PROVIDER=efi, the recipient lookup", () => {
  it("answers 501 lookup-unsupported and spends nothing", async () => {
    const accountId = await fundedAccount(0);
    const headers = await clientHeaders(accountId);
    for (let i = 0; i < 3; i++) {
      const answer = await call("/v1/pix-keys/maria%40example.com?type=email", { headers });
      expect(answer.status).toBe(501);
      expect(await answer.json()).toMatchObject({ type: expect.stringMatching(/\/lookup-unsupported$/), status: 501 });
    }
    const pool = testPool(1);
    try {
      const { rows } = await pool.query("SELECT 1 FROM lookup_budgets WHERE account_id = $1", [accountId]);
      expect(rows).toHaveLength(0);
    } finally {
      await pool.end();
    }
  });
});
