// Transfers for reconciliation tests, written straight through the saga record's functions
// with a recorded send (so their first send falls in the window), and a scripted provider whose
// statement and status answers the test chooses.
import type { Pool } from "@neondatabase/serverless";
import type { PixProvider, StatementItem, StatementOutcome, StatusOutcome } from "../../src/provider/port.ts";
import type { StatusAnswer } from "../../src/saga/answers.ts";
import { applyChange } from "../../src/transfers/store.ts";
import { openWithoutObject, storedChange } from "../support/saga.ts";

const sendCall = { kind: "send" as const, outcome: "accepted", httpStatus: 201, detail: null, durationMs: 5 };

/** A transfer sent now (a send call recorded) and then completed, released, or left submitted. */
export async function sentTransfer(
  pool: Pool,
  accountId: string,
  amountCents: number,
  end: "completed" | "released" | "submitted",
  endToEndId: string | null = null,
): Promise<string> {
  const saga = await openWithoutObject(pool, accountId, amountCents);
  const submitted = await applyChange(
    pool,
    saga.id,
    "funds_reserved",
    storedChange({ path: ["submitted"], endToEndId, nextCheckAtMs: Date.now() + 3_600_000 }),
    sendCall,
  );
  if (submitted.outcome !== "applied") throw new Error(`submitting answered ${submitted.outcome}`);
  if (end === "submitted") return saga.id;
  const final =
    end === "completed"
      ? storedChange({ path: ["completed"], ledger: "settle", reason: "provider confirmed" })
      : storedChange({
          path: ["compensating", "compensated"],
          ledger: "release",
          failureReason: "not_sent",
          reason: "not found after the grace window",
          actor: "saga",
        });
  const applied = await applyChange(pool, saga.id, "submitted", final, null);
  if (applied.outcome !== "applied") throw new Error(`finishing answered ${applied.outcome}`);
  return saga.id;
}

const evidence = { httpStatus: 200, durationMs: 1, body: null, error: null };

/** A provider whose statement is `items` (or a failure) and whose status answers come from `status`. */
export function scriptedProvider(script: {
  items: StatementItem[];
  statement?: (items: StatementItem[]) => StatementOutcome;
  status?: Map<string, StatusAnswer>;
}): PixProvider & { statusAsked: string[] } {
  const statusAsked: string[] = [];
  return {
    statusAsked,
    async send() {
      return { kind: "unknown", why: "scripted", evidence };
    },
    async resolveBrCode() {
      return { kind: "refused", code: "not_supported", evidence };
    },
    async status(order): Promise<StatusOutcome> {
      statusAsked.push(order.idempotencyKey);
      const answer = script.status?.get(order.idempotencyKey) ?? { kind: "not_found", afterGrace: "release" };
      return { ...answer, evidence } as StatusOutcome;
    },
    async statement() {
      return script.statement?.(script.items) ?? { complete: true, items: script.items, pages: 1 };
    },
  };
}

export function item(transferId: string, amountCents: number, overrides: Partial<StatementItem> = {}): StatementItem {
  return {
    idempotencyKey: transferId,
    status: "confirmed",
    amountCents,
    endToEndId: null,
    returns: [],
    returnsUnlisted: false,
    ...overrides,
  };
}
