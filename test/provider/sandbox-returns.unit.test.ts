import { describe, expect, it } from "vitest";
import { statusAnswer } from "../../src/provider/sandbox/answers.ts";
import { nextReturnAtMs, returnsBy, scriptedReturns } from "../../src/provider/sandbox/returns.ts";
import type { PaymentRow } from "../../src/provider/sandbox/store.ts";

const acceptedAtMs = 1_800_000_000_000;

function row(pixKey: string, amountCents: number): PaymentRow {
  return {
    idempotency_key: "2f0e4c1a-6a53-4a8e-9d0b-0a3b8f1d2c11",
    amount_cents: amountCents,
    pix_key: pixKey,
    send_calls: 1,
    status_calls: 0,
    end_to_end_id: "E99999999202601011200AbCdEfGhIjK",
    accepted_at_ms: acceptedAtMs,
    final_at_ms: acceptedAtMs + 100,
    webhook_id: "msg_1",
    webhook_state: "pending",
    webhook_attempts: 0,
    webhook_due_at_ms: acceptedAtMs + 100,
    dialect: "provider",
  };
}

describe("the sandbox's scripted returns", () => {
  it("returned@ gets the whole amount back one confirmation delay after confirming", () => {
    const returned = row("returned@sandbox.test", 2_500);
    expect(scriptedReturns(returned)).toEqual([
      {
        id: "D99999999202601011200AbCdEfGhIj1",
        amountCents: 2_500,
        reason: "returned_by_recipient",
        code: "MD06",
        atMs: acceptedAtMs + 200,
      },
    ]);
    expect(returnsBy(returned, acceptedAtMs + 199)).toEqual([]);
    expect(nextReturnAtMs(returned, acceptedAtMs + 100)).toBe(acceptedAtMs + 200);
    expect(nextReturnAtMs(returned, acceptedAtMs + 200)).toBeNull();
  });

  it("partial-return@ gets half rounded down, then the rest, for fraud", () => {
    const partial = row("partial-return@sandbox.test", 2_501);
    expect(scriptedReturns(partial).map((r) => [r.amountCents, r.reason, r.code, r.atMs - acceptedAtMs])).toEqual([
      [1_250, "fraud", "FR01", 200],
      [1_251, "fraud", "FR01", 300],
    ]);
    expect(scriptedReturns(row("partial-return@sandbox.test", 1)).map((r) => r.amountCents)).toEqual([1]);
  });

  it("lists on the status answer only the returns that already came back", () => {
    const partial = row("partial-return@sandbox.test", 2_000);
    expect(statusAnswer(partial, 1, acceptedAtMs + 150).body.returns).toEqual([]);
    expect(statusAnswer(partial, 1, acceptedAtMs + 250).body.returns).toEqual([
      { id: "D99999999202601011200AbCdEfGhIj1", amount_cents: 1_000, reason: "fraud", at: new Date(acceptedAtMs + 200).toISOString() },
    ]);
    expect(statusAnswer(row("happy@example.com", 2_000), 1, acceptedAtMs + 250).body.returns).toEqual([]);
  });

  it("late-confirm@ is not found until it leaves, then confirmed", () => {
    const late = { ...row("late-confirm@sandbox.test", 1_000), final_at_ms: acceptedAtMs + 5_000 };
    expect(statusAnswer(late, 1, acceptedAtMs + 4_999).httpStatus).toBe(404);
    expect(statusAnswer(late, 2, acceptedAtMs + 5_000).body.status).toBe("confirmed");
  });
});
