// Every row of the sandbox table (CONTRACT §4) with PROVIDER=efi: the public API, the saga
// object, Postgres, the Efí adapter, and the sandbox speaking Efí (/sandbox/efi) with its
// webhooks posted to /webhooks/efi/pix. Money exact; at most one payment per transfer.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  createTransfer,
  expectBalanceAfter,
  expectLedgerReconciled,
  fundedAccount,
  sandboxPayment,
  type TransferJson,
  waitForFinalState,
} from "../support/api.ts";
import { finalStateAtDeadline } from "../support/deadline.ts";

interface Row {
  local: string;
  state: "completed" | "compensated" | "needs_review";
  failureReason: string | null;
  /** Efí's `nome` (§4b), where the generic sandbox says `invalid_key`. */
  failureCode?: string;
  made: boolean;
  /** Sends the sandbox saw: 2 where a not-found past the grace window was settled by a resend. */
  sendCalls: number;
}

// biome-ignore format: a table reads best as a grid
const rows: Row[] = [
  { local: "ana",           state: "completed",    failureReason: null,                made: true,  sendCalls: 1 },
  { local: "reject",        state: "compensated",  failureReason: "provider_rejected", made: false, sendCalls: 1, failureCode: "pagamento_negado" },
  { local: "late-reject",   state: "compensated",  failureReason: "provider_rejected", made: false, sendCalls: 1, failureCode: "beneficiary_refused" },
  { local: "timeout-sent",  state: "completed",    failureReason: null,                made: true,  sendCalls: 1 },
  { local: "timeout-lost",  state: "compensated",  failureReason: "not_sent",          made: false, sendCalls: 2, failureCode: "pagamento_negado" },
  { local: "error-sent",    state: "completed",    failureReason: null,                made: true,  sendCalls: 1 },
  { local: "processing",    state: "needs_review", failureReason: null,                made: false, sendCalls: 1 },
  { local: "silent",        state: "completed",    failureReason: null,                made: true,  sendCalls: 1 },
  { local: "flaky-status",  state: "completed",    failureReason: null,                made: true,  sendCalls: 1 },
  { local: "lying-webhook", state: "completed",    failureReason: null,                made: true,  sendCalls: 1 },
  { local: "late-confirm",  state: "compensated",  failureReason: "not_sent",          made: true,  sendCalls: 2, failureCode: "pagamento_negado" },
];

const startCents = 100_000;
const amountCents = 1_234;

describe("with PROVIDER=efi, each sandbox behaviour reaches the contract's end state", () => {
  it("runs with the Efí adapter", () => {
    expect(env.PROVIDER).toBe("efi");
  });

  it.each(rows)("$local ends $state", async (row) => {
    const pixKey = row.local === "ana" ? "ana@example.com" : `${row.local}@sandbox.test`;
    const accountId = await fundedAccount(startCents);
    const created = await createTransfer(accountId, { amount_cents: amountCents, pix_key: pixKey, pix_key_type: "email" });
    expect(created.status).toBe(202);
    const first = await created.json<TransferJson>();

    // A transfer the provider keeps processing ends at its deadline: driven, not waited for.
    const final = await (row.state === "needs_review" ? finalStateAtDeadline : waitForFinalState)(accountId, first.id);
    expect(final.state).toBe(row.state);
    expect(final.failure_reason).toBe(row.failureReason);
    if (row.failureCode !== undefined) expect(final.failure_code).toBe(row.failureCode);

    await expectBalanceAfter(accountId, startCents, amountCents, row.state);

    // One payment per transfer at most: the sandbox holds one record under the transfer id,
    // and a resend with the same idEnvio never made a second.
    const payment = await sandboxPayment(first.id);
    expect(payment?.made ?? false).toBe(row.made);
    expect(payment?.send_calls).toBe(row.sendCalls);
    if (row.state === "completed") expect(final.end_to_end_id).toBe(payment?.end_to_end_id);
  });

  it("leaves the ledger reconciled", async () => {
    await expectLedgerReconciled();
  });
});
