// Every row of the sandbox table (CONTRACT §4), the happy path and insufficient funds, end to
// end: the public API, the saga object, Postgres, and the sandbox provider over its HTTP API.
// returned@ and partial-return@ (money back after completion) are in ./returns.test.ts.
import { describe, expect, it } from "vitest";
import {
  createTransfer,
  expectBalanceAfter,
  expectLedgerReconciled,
  fundedAccount,
  getBalance,
  sandboxPayment,
  type TransferJson,
  waitForFinalState,
} from "../support/api.ts";
import { finalStateAtDeadline } from "../support/deadline.ts";

interface Row {
  name: string;
  pixKey: string;
  pixKeyType: string;
  state: "completed" | "compensated" | "needs_review";
  failureReason: string | null;
  failureCode?: string;
  made: boolean;
}

const emailRow = (local: string, state: Row["state"], failureReason: string | null, made: boolean, failureCode?: string): Row => ({
  name: `${local}@sandbox.test`,
  pixKey: `${local}@sandbox.test`,
  pixKeyType: "email",
  state,
  failureReason,
  made,
  ...(failureCode === undefined ? {} : { failureCode }),
});

const rows: Row[] = [
  { name: "happy path (cpf)", pixKey: "100.000.001-08", pixKeyType: "cpf", state: "completed", failureReason: null, made: true },
  emailRow("reject", "compensated", "provider_rejected", false, "invalid_key"),
  emailRow("late-reject", "compensated", "provider_rejected", false),
  emailRow("timeout-sent", "completed", null, true),
  emailRow("timeout-lost", "compensated", "not_sent", false),
  emailRow("error-sent", "completed", null, true),
  emailRow("processing", "needs_review", null, false),
  emailRow("silent", "completed", null, true),
  emailRow("flaky-status", "completed", null, true),
  emailRow("lying-webhook", "completed", null, true),
  // The Pix left after the saga released it: provider reconciliation reports it (paid_after_release).
  emailRow("late-confirm", "compensated", "not_sent", true),
];

const startCents = 100_000;
const amountCents = 2_500;

describe("each sandbox behaviour reaches the contract's end state", () => {
  it.each(rows)("$name ends $state", async (row) => {
    const accountId = await fundedAccount(startCents);
    const created = await createTransfer(accountId, { amount_cents: amountCents, pix_key: row.pixKey, pix_key_type: row.pixKeyType });
    expect(created.status).toBe(202);
    const first = await created.json<TransferJson>();
    expect(["funds_reserved", "submitted", "completed", "compensated"]).toContain(first.state);

    // A transfer the provider keeps processing ends at its deadline: driven, not waited for.
    const final = await (row.state === "needs_review" ? finalStateAtDeadline : waitForFinalState)(accountId, first.id);
    expect(final.state).toBe(row.state);
    expect(final.failure_reason).toBe(row.failureReason);
    if (row.failureCode !== undefined) expect(final.failure_code).toBe(row.failureCode);
    expect(final.history[0]?.state).toBe("started");
    expect(final.history.at(-1)?.state).toBe(row.state);

    await expectBalanceAfter(accountId, startCents, amountCents, row.state);

    const payment = await sandboxPayment(first.id);
    expect(payment?.made ?? false).toBe(row.made);
    if (row.state === "completed") expect(final.end_to_end_id).toMatch(/^E/);
  });

  it("refuses a transfer above the available balance and sends nothing", async () => {
    const accountId = await fundedAccount(1_000);
    const created = await createTransfer(accountId, { amount_cents: 1_001, pix_key: "100.000.001-08", pix_key_type: "cpf" });
    expect(created.status).toBe(202);
    const transfer = await created.json<TransferJson>();
    expect(transfer.state).toBe("compensated");
    expect(transfer.failure_reason).toBe("insufficient_funds");
    expect(transfer.history.map((h) => h.state)).toEqual(["started", "compensated"]);
    expect(await getBalance(accountId)).toEqual({ account_id: accountId, balance_cents: 1_000, held_cents: 0, available_cents: 1_000 });
    expect(await sandboxPayment(transfer.id)).toBeNull();
  });

  it("leaves the ledger reconciled", async () => {
    await expectLedgerReconciled();
  });
});
