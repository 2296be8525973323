// SandboxProvider: the sandbox PSP's state, one instance (`env.SANDBOX.getByName("sandbox")`).
// It records sends, answers from what it holds, and delivers due webhooks from its alarm. The
// HTTP layer (routes.ts) passes the timings in, so the answer to a request follows that
// request's configuration; the DO only reads WEBHOOK_SECRET itself, for its alarm.
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../env.ts";
import type { PixKeyType } from "../port.ts";
import {
  idempotencyConflictAnswer,
  needsEndToEndId,
  notFoundAnswer,
  type PaymentView,
  paymentView,
  type SandboxAnswer,
  sendAnswer,
  slowAnswerMarginMs,
  statusAnswer,
} from "./answers.ts";
import { behaviourFor } from "./behaviours.ts";
import { newEndToEndId } from "./end-to-end-id.ts";
import { nextReturnAtMs } from "./returns.ts";
import { type PaymentRow, PaymentStore } from "./store.ts";
import { deliverWebhook, nextAttemptAfterFailure, webhookBody } from "./webhook-delivery.ts";

export const sandboxInstanceName = "sandbox";
const outageKey = "outage_until_ms";

export interface SandboxSend {
  idempotencyKey: string;
  amountCents: number;
  pixKey: string;
  pixKeyType: PixKeyType;
  /** From this request's SANDBOX_CONFIRM_MS and PROVIDER_TIMEOUT_MS. */
  confirmMs: number;
  providerTimeoutMs: number;
  /** PROVIDER_NOT_FOUND_GRACE_MS: late-confirm@ stays hidden until past it. */
  notFoundGraceMs: number;
}

export interface WebhookAttemptReport {
  idempotencyKey: string;
  webhookId: string;
  claimedStatus: "confirmed" | "rejected";
  delivered: boolean;
  httpStatus: number | null;
}

export class SandboxProvider extends DurableObject<Env> {
  private readonly store: PaymentStore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new PaymentStore(ctx.storage.sql);
  }

  /** Records a send (idempotent by key) and says how to answer it. */
  async send(input: SandboxSend): Promise<SandboxAnswer> {
    const existing = this.store.find(input.idempotencyKey);
    if (existing !== null) {
      this.store.countSendCall(input.idempotencyKey);
      if (existing.amount_cents !== input.amountCents || existing.pix_key !== input.pixKey) return idempotencyConflictAnswer;
      return sendAnswer(existing, false, input.providerTimeoutMs);
    }
    const nowMs = Date.now();
    const behaviour = behaviourFor(input.pixKey);
    const webhookStatus = behaviour.webhookStatus;
    // A late-confirm payment leaves only once the caller's grace window is over (plus the usual delay).
    const finalAtMs = nowMs + input.confirmMs + (behaviour.hiddenPastGrace ? input.notFoundGraceMs + slowAnswerMarginMs : 0);
    const row: PaymentRow = {
      idempotency_key: input.idempotencyKey,
      amount_cents: input.amountCents,
      pix_key: input.pixKey,
      send_calls: 1,
      status_calls: 0,
      end_to_end_id: needsEndToEndId(input.pixKey) ? newEndToEndId(nowMs) : null,
      accepted_at_ms: nowMs,
      final_at_ms: finalAtMs,
      webhook_id: webhookStatus === null ? null : `msg_${crypto.randomUUID()}`,
      webhook_state: webhookStatus === null ? "none" : "pending",
      webhook_attempts: 0,
      webhook_due_at_ms: webhookStatus === null ? null : finalAtMs,
    };
    this.store.insert(row);
    // Delivery happens in the alarm, so the send's answer never waits on a webhook.
    if (webhookStatus !== null) await this.armAlarm();
    return sendAnswer(row, true, input.providerTimeoutMs);
  }

  async status(idempotencyKey: string): Promise<SandboxAnswer> {
    const row = this.store.find(idempotencyKey);
    if (row === null) return notFoundAnswer;
    const statusCallNumber = this.store.countStatusCall(idempotencyKey);
    return statusAnswer(row, statusCallNumber, Date.now());
  }

  /** Fault injection: the PSP API answers 503 to everything until `durationMs` from now. */
  async startOutage(durationMs: number): Promise<{ outageUntilMs: number }> {
    const outageUntilMs = Date.now() + durationMs;
    await this.ctx.storage.put(outageKey, outageUntilMs);
    return { outageUntilMs };
  }

  async inOutage(): Promise<boolean> {
    return ((await this.ctx.storage.get<number>(outageKey)) ?? 0) > Date.now();
  }

  async payment(idempotencyKey: string): Promise<PaymentView | null> {
    const row = this.store.find(idempotencyKey);
    return row === null ? null : paymentView(row, Date.now());
  }

  async payments(): Promise<PaymentView[]> {
    const nowMs = Date.now();
    return this.store.newest().map((row) => paymentView(row, nowMs));
  }

  override async alarm(): Promise<void> {
    await this.deliverDueWebhooks(Date.now());
  }

  /** Sends every webhook due at `nowMs` (the alarm passes the clock; tests pass a later one). */
  async deliverDueWebhooks(nowMs: number): Promise<WebhookAttemptReport[]> {
    const reports: WebhookAttemptReport[] = [];
    for (const row of this.store.dueWebhooks(nowMs)) {
      const claimedStatus = behaviourFor(row.pix_key).webhookStatus;
      if (claimedStatus === null || row.webhook_id === null) continue;
      const body = webhookBody({ idempotencyKey: row.idempotency_key, endToEndId: row.end_to_end_id, status: claimedStatus });
      const result = await deliverWebhook({ secrets: this.env.WEBHOOK_SECRET ?? "", webhookId: row.webhook_id, body });
      const attempts = row.webhook_attempts + 1;
      const next = result.delivered ? { state: "delivered" as const } : nextAttemptAfterFailure(attempts, Date.now());
      this.store.recordWebhookAttempt(row.idempotency_key, {
        state: next.state,
        attempts,
        dueAtMs: next.state === "pending" ? next.dueAtMs : null,
      });
      // A payment whose money comes back gets a new message when it does, so its saga asks.
      const returnAtMs = next.state === "pending" ? null : nextReturnAtMs(row, nowMs);
      if (returnAtMs !== null) this.store.scheduleWebhook(row.idempotency_key, `msg_${crypto.randomUUID()}`, returnAtMs);
      if (!result.delivered) {
        console.warn(
          JSON.stringify({
            event: "sandbox_webhook_failed",
            idempotency_key: row.idempotency_key,
            attempts,
            next: next.state,
            error: result.error,
          }),
        );
      }
      reports.push({ idempotencyKey: row.idempotency_key, webhookId: row.webhook_id, claimedStatus, ...result });
    }
    await this.armAlarm();
    return reports;
  }

  private async armAlarm(): Promise<void> {
    const dueAtMs = this.store.nextWebhookDueAtMs();
    if (dueAtMs === null) {
      await this.ctx.storage.deleteAlarm();
      return;
    }
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > dueAtMs) await this.ctx.storage.setAlarm(dueAtMs);
  }
}
