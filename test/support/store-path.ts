// One transfer opened, sent and completed through the saga's own store functions
// (src/transfers/store.ts), as the saga object's three steps make them, without the Worker:
// what test/db/rows-per-transfer.node.test.ts counts rows of and the bench's `sql` section
// meters PostgreSQL's CPU of.
import { randomUUID } from "node:crypto";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import type { Queryable } from "../../src/db/queryable.ts";
import { localClockFields } from "../../src/lib/sao-paulo-clock.ts";
import { applyChange, openTransfer, type ProviderCallRecord } from "../../src/transfers/store.ts";

export type StorePathStep = "open" | "send" | "complete";

/** The provider call a step records (a send, or the status check that confirmed). */
function providerCall(kind: "send" | "status", outcome: string): ProviderCallRecord {
  return { kind, outcome, httpStatus: 200, detail: null, durationMs: 40 };
}

/** The saga's decided change for a send (`submitted`) or a confirmation (`completed`, settled). */
function providerChange(path: ("submitted" | "completed")[], ledger: "settle" | null, outcome: string, nowMs: number) {
  return {
    path,
    ledger,
    failureReason: null,
    failureCode: null,
    endToEndId: ledger === null ? null : `E2E${randomUUID().replaceAll("-", "").slice(0, 24)}`,
    checksMade: ledger === null ? 0 : 1,
    nextCheckAtMs: ledger === null ? nowMs + 50 : null,
    lastSentAtMs: nowMs,
    reason: `provider: ${outcome}`,
    actor: "provider" as const,
    sent: ledger === null,
    evidence: { provider_call: ledger === null ? "send" : "status", outcome },
  };
}

/** Opens one transfer of `amountCents` from `accountId`, sent at once and held, as the route does. */
export async function openThroughStore(db: Queryable, accountId: string, amountCents: number, nowMs: number): Promise<string> {
  const opened = await openTransfer(db, {
    id: randomUUID(),
    accountId,
    amountCents,
    pixKey: "store-path@example.com",
    pixKeyType: "email",
    description: null,
    idempotencyKey: randomUUID(),
    requestFingerprint: "store-path",
    deadlineMs: 60_000,
    ...localClockFields(nowMs),
    rules: readRuleSettings({}),
  });
  if (opened.outcome !== "created") throw new Error(`open answered ${opened.outcome}`);
  return opened.saga.id;
}

/**
 * Opens, sends and completes one transfer of `amountCents` from `accountId`; `after` runs after
 * each step (awaited, so a test may read the database there).
 */
export async function completeThroughStore(
  db: Queryable,
  accountId: string,
  amountCents: number,
  nowMs: number,
  after: (step: StorePathStep, transferId: string) => void | Promise<void> = () => {},
): Promise<string> {
  const id = await openThroughStore(db, accountId, amountCents, nowMs);
  await after("open", id);
  const sent = await applyChange(
    db,
    id,
    "funds_reserved",
    providerChange(["submitted"], null, "accepted", nowMs),
    providerCall("send", "accepted"),
  );
  if (sent.outcome !== "applied") throw new Error(`send answered ${sent.outcome}`);
  await after("send", id);
  const completed = await applyChange(
    db,
    id,
    "submitted",
    providerChange(["completed"], "settle", "confirmed", nowMs),
    providerCall("status", "confirmed"),
  );
  if (completed.outcome !== "applied") throw new Error(`completion answered ${completed.outcome}`);
  await after("complete", id);
  return id;
}
