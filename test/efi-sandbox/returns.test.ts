// Returns with PROVIDER=efi: the sandbox's returned@ and partial-return@ in Efí's words
// (`devolucoes[]`, DEVOLVIDO), its webhook to /webhooks/efi/pix after each return, and each
// return credited once through the Efí adapter.
import { describe, expect, it } from "vitest";
import { createTransfer, fundedAccount, getBalance, getTransfer, type TransferJson, waitForFinalState } from "../support/api.ts";

const startCents = 100_000;

async function waitForReturned(accountId: string, id: string, cents: number, timeoutMs = 10_000): Promise<TransferJson> {
  const giveUpAtMs = Date.now() + timeoutMs;
  for (;;) {
    const transfer = await getTransfer(accountId, id);
    if (transfer.returned_cents >= cents) return transfer;
    if (Date.now() > giveUpAtMs) throw new Error(`transfer ${id} has ${transfer.returned_cents} returned after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

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
    const created = await createTransfer(accountId, { amount_cents: amountCents, pix_key: key, pix_key_type: "email" });
    const completed = await waitForFinalState(accountId, (await created.json<TransferJson>()).id);
    expect(completed.state).toBe("completed");
    const returned = await waitForReturned(accountId, completed.id, amountCents);
    expect(returned.state).toBe("completed");
    expect(returned.returned_cents).toBe(amountCents);
    expect(returned.returns.map((r) => [r.amount_cents, r.reason])).toEqual(expected);
    expect((await getBalance(accountId)).balance_cents).toBe(startCents);
  });
});
