// The sandbox's payments table in its Durable Object's SQLite: one row per idempotency key,
// with the counters and the webhook's delivery state. Rows only; no behaviour lives here.

export type WebhookState = "none" | "pending" | "delivered" | "abandoned";
/** Which API the send came through, so its webhook speaks the same dialect. */
export type SandboxDialect = "provider" | "efi";

export type PaymentRow = {
  idempotency_key: string;
  amount_cents: number;
  pix_key: string;
  send_calls: number;
  status_calls: number;
  end_to_end_id: string | null;
  accepted_at_ms: number;
  /** When the payment reaches its final status (SANDBOX_CONFIRM_MS after acceptance). */
  final_at_ms: number;
  /** One id per message: Standard Webhooks keeps it across retries so receivers can dedupe. */
  webhook_id: string | null;
  webhook_state: WebhookState;
  webhook_attempts: number;
  webhook_due_at_ms: number | null;
  dialect: SandboxDialect;
};

/** The sandbox is for humans and tests: the oldest payments beyond this are forgotten. */
export const paymentsKeptMax = 10_000;
/** Bounds a listing and one alarm's delivery batch. */
export const paymentsListedMax = 200;
export const webhooksPerAlarmMax = 20;

export class PaymentStore {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS payments (
      idempotency_key TEXT PRIMARY KEY,
      amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
      pix_key TEXT NOT NULL,
      send_calls INTEGER NOT NULL,
      status_calls INTEGER NOT NULL,
      end_to_end_id TEXT,
      accepted_at_ms INTEGER NOT NULL,
      final_at_ms INTEGER NOT NULL,
      webhook_id TEXT,
      webhook_state TEXT NOT NULL CHECK (webhook_state IN ('none', 'pending', 'delivered', 'abandoned')),
      webhook_attempts INTEGER NOT NULL,
      webhook_due_at_ms INTEGER
    )`);
    sql.exec("CREATE INDEX IF NOT EXISTS payments_webhook_due ON payments (webhook_state, webhook_due_at_ms)");
    // Added with the Efí dialect: a sandbox kept from before gets the column, its rows `provider`.
    const columns = sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('payments')").toArray();
    if (!columns.some((column) => column.name === "dialect")) {
      sql.exec("ALTER TABLE payments ADD COLUMN dialect TEXT NOT NULL DEFAULT 'provider' CHECK (dialect IN ('provider', 'efi'))");
    }
  }

  find(idempotencyKey: string): PaymentRow | null {
    return this.sql.exec<PaymentRow>("SELECT * FROM payments WHERE idempotency_key = ?", idempotencyKey).toArray()[0] ?? null;
  }

  insert(row: PaymentRow): void {
    this.sql.exec(
      `INSERT INTO payments (idempotency_key, amount_cents, pix_key, send_calls, status_calls, end_to_end_id, accepted_at_ms,
        final_at_ms, webhook_id, webhook_state, webhook_attempts, webhook_due_at_ms, dialect) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.idempotency_key,
      row.amount_cents,
      row.pix_key,
      row.send_calls,
      row.status_calls,
      row.end_to_end_id,
      row.accepted_at_ms,
      row.final_at_ms,
      row.webhook_id,
      row.webhook_state,
      row.webhook_attempts,
      row.webhook_due_at_ms,
      row.dialect,
    );
    this.sql.exec(
      "DELETE FROM payments WHERE idempotency_key IN (SELECT idempotency_key FROM payments ORDER BY accepted_at_ms DESC LIMIT -1 OFFSET ?)",
      paymentsKeptMax,
    );
  }

  countSendCall(idempotencyKey: string): void {
    this.sql.exec("UPDATE payments SET send_calls = send_calls + 1 WHERE idempotency_key = ?", idempotencyKey);
  }

  /** A hidden late-confirm payment leaves at `atMs` (never later than it was due to). */
  leaveBy(idempotencyKey: string, atMs: number): void {
    this.sql.exec("UPDATE payments SET final_at_ms = MIN(final_at_ms, ?) WHERE idempotency_key = ?", atMs, idempotencyKey);
  }

  /** A late-confirm payment that left on a give-up its caller took back is hidden again until `dueAtMs`. */
  hideUntil(idempotencyKey: string, dueAtMs: number): void {
    this.sql.exec("UPDATE payments SET final_at_ms = ? WHERE idempotency_key = ?", dueAtMs, idempotencyKey);
  }

  /** Returns the new count, so the caller knows which status call this is. */
  countStatusCall(idempotencyKey: string): number {
    const rows = this.sql
      .exec<{ status_calls: number }>(
        "UPDATE payments SET status_calls = status_calls + 1 WHERE idempotency_key = ? RETURNING status_calls",
        idempotencyKey,
      )
      .toArray();
    return rows[0]?.status_calls ?? 0;
  }

  newest(): PaymentRow[] {
    return this.sql.exec<PaymentRow>("SELECT * FROM payments ORDER BY accepted_at_ms DESC LIMIT ?", paymentsListedMax).toArray();
  }

  /** Every payment sent through `dialect` and accepted in [fromMs, toMs), oldest first (the statement). */
  acceptedIn(fromMs: number, toMs: number, dialect: SandboxDialect): PaymentRow[] {
    return this.sql
      .exec<PaymentRow>(
        `SELECT * FROM payments WHERE dialect = ? AND accepted_at_ms >= ? AND accepted_at_ms < ?
          ORDER BY accepted_at_ms, idempotency_key LIMIT ?`,
        dialect,
        fromMs,
        toMs,
        paymentsKeptMax,
      )
      .toArray();
  }

  dueWebhooks(nowMs: number): PaymentRow[] {
    return this.sql
      .exec<PaymentRow>(
        "SELECT * FROM payments WHERE webhook_state = 'pending' AND webhook_due_at_ms <= ? ORDER BY webhook_due_at_ms LIMIT ?",
        nowMs,
        webhooksPerAlarmMax,
      )
      .toArray();
  }

  nextWebhookDueAtMs(): number | null {
    const rows = this.sql
      .exec<{ due: number | null }>("SELECT MIN(webhook_due_at_ms) AS due FROM payments WHERE webhook_state = 'pending'")
      .toArray();
    return rows[0]?.due ?? null;
  }

  /** A new message (its own id) for a payment whose last one is finished. */
  scheduleWebhook(idempotencyKey: string, webhookId: string, dueAtMs: number): void {
    this.sql.exec(
      "UPDATE payments SET webhook_id = ?, webhook_state = 'pending', webhook_attempts = 0, webhook_due_at_ms = ? WHERE idempotency_key = ?",
      webhookId,
      dueAtMs,
      idempotencyKey,
    );
  }

  recordWebhookAttempt(idempotencyKey: string, next: { state: WebhookState; attempts: number; dueAtMs: number | null }): void {
    this.sql.exec(
      "UPDATE payments SET webhook_state = ?, webhook_attempts = ?, webhook_due_at_ms = ? WHERE idempotency_key = ?",
      next.state,
      next.attempts,
      next.dueAtMs,
      idempotencyKey,
    );
  }
}
