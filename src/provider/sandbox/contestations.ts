// The sandbox's contestations (CONTRACT §4 "The sandbox provider"): one per payment, decided
// SANDBOX_CONFIRM_MS after it was taken, by the payment's key: `med-accept…` accepted (the whole
// amount comes back as a `fraud` return), `med-partial…` partially accepted (half, rounded
// down), any other rejected. The refund is a return of the payment like the scripted ones, so it
// reaches the caller through status answers, the statement and a webhook, in both dialects.
// Rows in the sandbox object's SQLite; decisions derived from them and the time.
import type { ContestationOutcome } from "../../saga/contestations.ts";
import type { ScriptedReturn } from "./returns.ts";
import type { PaymentRow } from "./store.ts";

export type ContestationRow = {
  id: string;
  idempotency_key: string;
  reason: string;
  submitted_at_ms: number;
  decide_at_ms: number;
};

export function outcomeFor(pixKey: string): ContestationOutcome {
  const key = pixKey.toLowerCase();
  if (key.startsWith("med-accept")) return "accepted";
  if (key.startsWith("med-partial")) return "partially_accepted";
  return "rejected";
}

/** What the caller is told: `submitted` until the decision's time. */
export function contestationStatus(row: ContestationRow, payment: PaymentRow, nowMs: number): ContestationOutcome | "submitted" {
  return nowMs < row.decide_at_ms ? "submitted" : outcomeFor(payment.pix_key);
}

/** The refund a decision sends back, once decided: none for a rejection (or half of one cent). */
export function contestationRefunds(row: ContestationRow | null, payment: PaymentRow, nowMs: number): ScriptedReturn[] {
  if (row === null || nowMs < row.decide_at_ms) return [];
  const outcome = outcomeFor(payment.pix_key);
  const amountCents =
    outcome === "accepted" ? payment.amount_cents : outcome === "partially_accepted" ? Math.floor(payment.amount_cents / 2) : 0;
  if (amountCents === 0) return [];
  // `D` and 31 characters, as return ids are written; from the contestation's own id.
  const id = `D${row.id.replaceAll("-", "").slice(0, 30).toUpperCase()}M`;
  return [{ id, amountCents, reason: "fraud", code: "FR01", atMs: row.decide_at_ms }];
}

export class ContestationStore {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS contestations (
      id TEXT PRIMARY KEY,
      idempotency_key TEXT NOT NULL UNIQUE,
      reason TEXT NOT NULL,
      submitted_at_ms INTEGER NOT NULL,
      decide_at_ms INTEGER NOT NULL
    )`);
  }

  ofPayment(idempotencyKey: string): ContestationRow | null {
    return this.sql.exec<ContestationRow>("SELECT * FROM contestations WHERE idempotency_key = ?", idempotencyKey).toArray()[0] ?? null;
  }

  find(id: string): ContestationRow | null {
    return this.sql.exec<ContestationRow>("SELECT * FROM contestations WHERE id = ?", id).toArray()[0] ?? null;
  }

  insert(row: ContestationRow): void {
    this.sql.exec(
      "INSERT INTO contestations (id, idempotency_key, reason, submitted_at_ms, decide_at_ms) VALUES (?, ?, ?, ?, ?)",
      row.id,
      row.idempotency_key,
      row.reason,
      row.submitted_at_ms,
      row.decide_at_ms,
    );
  }
}
