// Returns with PROVIDER=efi: the sandbox's returned@ and partial-return@ in Efí's words
// (`devolucoes[]`, DEVOLVIDO), its webhook to /webhooks/efi/pix after each return, and each
// return credited once through the Efí adapter.
import { describe, expect, it } from "vitest";
import { finishedTransfer, fundedAccount, getBalance, waitForReturned } from "../support/api.ts";

const startCents = 100_000;

describe("with PROVIDER=efi, returns reach the ledger once", () => {
  it.each([
    { key: "returned@sandbox.test", amountCents: 1_234, expected: [[1_234, "returned_by_recipient"]] },
    {
      key: "partial-return@sandbox.test",
      amountCents: 1_235,
      expected: [
        [617, "fraud"],
        [618, "fraud"],
      ],
    },
  ])("$key", async ({ key, amountCents, expected }) => {
    const accountId = await fundedAccount(startCents);
    const completed = await finishedTransfer(accountId, { amount_cents: amountCents, pix_key: key, pix_key_type: "email" });
    expect(completed.state).toBe("completed");
    const returned = await waitForReturned(accountId, completed.id, amountCents);
    expect(returned.state).toBe("completed");
    expect(returned.returned_cents).toBe(amountCents);
    expect(returned.returns.map((r) => [r.amount_cents, r.reason])).toEqual(expected);
    expect((await getBalance(accountId)).balance_cents).toBe(startCents);
  });
});
