// SandboxProvider: the sandbox PSP's state, one instance (`env.SANDBOX.getByName("sandbox")`).
// It records sends, answers from what it holds, and delivers due webhooks from its alarm
// (due-webhooks.ts). The HTTP layer (the src/http/sandbox-*.ts routes, efi-routes.ts) passes the
// timings in, so the answer to a request follows that request's configuration; the DO only
// reads its own SANDBOX_WEBHOOK_SECRET, for its alarm
// (WEBHOOK_SECRET only verifies the provider: locally it lists the same key, so these verify).
import { DurableObject } from "cloudflare:workers";
import { configOf } from "../../config/isolate.ts";
import type { JsonObject } from "../../json.ts";
import type { PixKeyType } from "../../lib/ids.ts";
import {
  idempotencyConflictAnswer,
  lateConfirmUnclaimedMs,
  needsEndToEndId,
  notFoundAnswer,
  type PaymentView,
  paymentView,
  type SandboxAnswer,
  sendAnswer,
  statusAnswer,
} from "./answers.ts";
import { behaviourFor } from "./behaviours.ts";
import { type ChargeChange, ChargeStore, type SandboxCharge } from "./charges.ts";
import { ContestationStore, contestationRefunds, contestationStatus } from "./contestations.ts";
import { deliverDueWebhooks, type WebhookAttemptReport } from "./due-webhooks.ts";
import { efiListItem, efiSendAnswer, efiStatusAnswer } from "./efi-answers.ts";
import { newEndToEndId } from "./end-to-end-id.ts";
import { type PaymentRow, PaymentStore, type SandboxDialect } from "./store.ts";

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
  /** Which API the send came through (default: the generic one). */
  dialect?: SandboxDialect;
  /** PROVIDER_NOT_FOUND_GRACE_MS: late-confirm@ stays hidden until past it. */
  notFoundGraceMs: number;
}

export class SandboxProvider extends DurableObject<Env> {
  private readonly store: PaymentStore;
  private readonly charges: ChargeStore;
  private readonly contestations: ContestationStore;
  /** Sends being answered right now, and the most seen at once (PROVIDER_SEND_CONCURRENCY's proof). */
  private sendsInFlight = 0;
  private sendsInFlightMax = 0;
  /**
   * Efí payments whose resend was refused: the caller's next not-found is its giving up. In
   * memory: after a restart such a late-confirm payment leaves at its unclaimed time instead.
   */
  private readonly refusedResends = new Set<string>();
  /**
   * Late-confirm payments that left on a generic not-found past the grace window, with the time
   * each was due to leave before that. The caller's window runs from when it got the send's
   * answer, later than we took the send, so a caller may still be inside it: its next status call
   * takes the giving up back. In memory, like refusedResends.
   */
  private readonly gaveUpDueAtMs = new Map<string, number>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new PaymentStore(ctx.storage.sql);
    this.charges = new ChargeStore(ctx.storage.sql);
    this.contestations = new ContestationStore(ctx.storage.sql);
  }

  /**
   * Takes a contestation of a confirmed payment (CONTRACT §4): one per payment, so a repeat
   * answers the same one; decided `confirmMs` later, when the payment gets a new webhook so its
   * saga asks (and finds the refund, if any, among its returns).
   */
  async contest(idempotencyKey: string, reason: string, confirmMs: number): Promise<SandboxAnswer> {
    const payment = this.store.find(idempotencyKey);
    const nowMs = Date.now();
    if (payment === null || statusAnswer(payment, Number.MAX_SAFE_INTEGER, nowMs).httpStatus === 404) return notFoundAnswer;
    const existing = this.contestations.ofPayment(idempotencyKey);
    if (existing !== null) {
      return { httpStatus: 200, body: { id: existing.id, status: contestationStatus(existing, payment, nowMs) }, answerDelayMs: 0 };
    }
    if (statusAnswer(payment, Number.MAX_SAFE_INTEGER, nowMs).body.status !== "confirmed") {
      return { httpStatus: 409, body: { code: "not_confirmed" }, answerDelayMs: 0 };
    }
    const row = {
      id: crypto.randomUUID(),
      idempotency_key: idempotencyKey,
      reason,
      submitted_at_ms: nowMs,
      decide_at_ms: nowMs + confirmMs,
    };
    this.contestations.insert(row);
    const announced = behaviourFor(payment.pix_key).webhookStatus !== null;
    if (announced && payment.webhook_state !== "pending")
      this.store.scheduleWebhook(idempotencyKey, `msg_${crypto.randomUUID()}`, row.decide_at_ms);
    await this.armAlarm();
    return { httpStatus: 201, body: { id: row.id, status: "submitted" }, answerDelayMs: 0 };
  }

  /** A contestation's decision (`submitted` until it is made); 404 for an id never given. */
  async contestation(id: string): Promise<SandboxAnswer> {
    const row = this.contestations.find(id);
    const payment = row === null ? null : this.store.find(row.idempotency_key);
    if (row === null || payment === null) return notFoundAnswer;
    return { httpStatus: 200, body: { id: row.id, status: contestationStatus(row, payment, Date.now()) }, answerDelayMs: 0 };
  }

  /** A payment's refund from its contestation, once decided. */
  private refundsOf(row: PaymentRow, nowMs: number) {
    return contestationRefunds(this.contestations.ofPayment(row.idempotency_key), row, nowMs);
  }

  /** What a receiver changed in the dynamic charge `txid` since its code was made; null: nothing. */
  async charge(txid: string): Promise<SandboxCharge | null> {
    return this.charges.find(txid);
  }

  /** A receiver changes (or removes) a live dynamic charge, as a PSP lets it until the Pix leaves. */
  async changeCharge(txid: string, change: ChargeChange): Promise<SandboxCharge> {
    return this.charges.change(txid, change);
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
    // A late-confirm payment leaves once the caller has given up on it (giveUpOnLateConfirm), so
    // the caller's own pace never decides the ending; one nobody gives up on leaves much later.
    const finalAtMs = nowMs + input.confirmMs + (behaviour.hiddenPastGrace ? input.notFoundGraceMs + lateConfirmUnclaimedMs : 0);
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
      dialect: input.dialect ?? "provider",
    };
    this.store.insert(row);
    // Delivery happens in the alarm, so the send's answer never waits on a webhook.
    if (webhookStatus !== null) await this.armAlarm();
    return sendAnswer(row, true, input.providerTimeoutMs);
  }

  /** The generic API's status call; `notFoundGraceMs` is the caller's PROVIDER_NOT_FOUND_GRACE_MS. */
  async status(idempotencyKey: string, notFoundGraceMs: number): Promise<SandboxAnswer> {
    this.takeBackGiveUp(idempotencyKey);
    const answer = this.answerStatus(idempotencyKey);
    const row = this.store.find(idempotencyKey);
    // The generic saga releases on a not-found past its grace window: that is its giving up.
    const nowMs = Date.now();
    if (row !== null && answer.httpStatus === 404 && nowMs >= row.accepted_at_ms + notFoundGraceMs) this.giveUpOnLateConfirm(row, nowMs);
    return answer;
  }

  private answerStatus(idempotencyKey: string): SandboxAnswer {
    const row = this.store.find(idempotencyKey);
    if (row === null) return notFoundAnswer;
    const statusCallNumber = this.store.countStatusCall(idempotencyKey);
    const nowMs = Date.now();
    return statusAnswer(row, statusCallNumber, nowMs, this.refundsOf(row, nowMs));
  }

  /**
   * A hidden late-confirm payment leaves right after the caller was told, past its grace window,
   * that there is none (a generic not-found; Efí's not-found after a refused resend): the Pix
   * the caller released.
   */
  private giveUpOnLateConfirm(row: PaymentRow, nowMs: number): void {
    if (!behaviourFor(row.pix_key).hiddenPastGrace || nowMs >= row.final_at_ms) return;
    this.gaveUpDueAtMs.set(row.idempotency_key, row.final_at_ms);
    this.store.leaveBy(row.idempotency_key, nowMs);
  }

  /** A caller that asks again after a give-up had not released: the Pix is hidden until it does. */
  private takeBackGiveUp(idempotencyKey: string): void {
    const dueAtMs = this.gaveUpDueAtMs.get(idempotencyKey);
    if (dueAtMs === undefined) return;
    this.gaveUpDueAtMs.delete(idempotencyKey);
    this.store.hideUntil(idempotencyKey, dueAtMs);
  }

  /** The HTTP layer brackets every send's whole answer (its delay included) with these. */
  async sendStarted(): Promise<void> {
    this.sendsInFlight += 1;
    this.sendsInFlightMax = Math.max(this.sendsInFlightMax, this.sendsInFlight);
  }

  async sendEnded(): Promise<void> {
    this.sendsInFlight = Math.max(0, this.sendsInFlight - 1);
  }

  /** In memory: a restarted sandbox starts counting again. `reset` starts a new measurement. */
  async sendConcurrency(reset = false): Promise<{ inFlight: number; inFlightMax: number }> {
    const seen = { inFlight: this.sendsInFlight, inFlightMax: this.sendsInFlightMax };
    if (reset) this.sendsInFlightMax = this.sendsInFlight;
    return seen;
  }

  /** A send through Efí's API: the same payment, answered in Efí's words (efi-answers.ts). */
  async sendEfi(input: SandboxSend): Promise<SandboxAnswer> {
    const firstCall = this.store.find(input.idempotencyKey) === null;
    const generic = await this.send({ ...input, dialect: "efi" });
    const row = this.store.find(input.idempotencyKey);
    const nowMs = Date.now();
    const answer = efiSendAnswer(generic, row, firstCall, nowMs);
    // The Efí saga resends after a not-found past its grace window, and reads the status once
    // more after a refusal: the not-found that read gets is its giving up (statusEfi).
    if (row !== null && !firstCall && answer.httpStatus === 422) this.refusedResends.add(input.idempotencyKey);
    return answer;
  }

  async statusEfi(idempotencyKey: string): Promise<SandboxAnswer> {
    const generic = this.answerStatus(idempotencyKey);
    const row = this.store.find(idempotencyKey);
    const answer = efiStatusAnswer(generic, row);
    if (row !== null && answer.httpStatus === 404 && this.refusedResends.delete(idempotencyKey)) this.giveUpOnLateConfirm(row, Date.now());
    return answer;
  }

  /**
   * The statement (CONTRACT §4 `GET /pix?from&to`, §4b `GET /v2/gn/pix/enviados`): every payment
   * sent through `dialect` and accepted in [fromMs, toMs), as its status answer (returns
   * included) says now. A lost send left no trace, and a late-confirm payment is not shown
   * before it leaves: neither is on it. The routes page it. JSON text: the RPC stub's typing of
   * a recursive JSON type never ends.
   */
  async statement(fromMs: number, toMs: number, dialect: SandboxDialect): Promise<string> {
    const nowMs = Date.now();
    // The answers' bodies are built of JSON values only (answers.ts, efi-answers.ts).
    const items: JsonObject[] = [];
    for (const row of this.store.acceptedIn(fromMs, toMs, dialect)) {
      const answer = statusAnswer(row, Number.MAX_SAFE_INTEGER, nowMs, this.refundsOf(row, nowMs));
      if (answer.httpStatus !== 200) continue;
      if (dialect === "efi") {
        items.push(efiListItem(efiStatusAnswer(answer, row).body) as JsonObject);
        continue;
      }
      const { code: _code, ...item } = answer.body;
      items.push(item as JsonObject);
    }
    return JSON.stringify(items);
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

  /** The sandbox's own signing key; "" when unset, which deliverWebhook reports as a failure. */
  private webhookSecret(): string {
    const config = configOf(this.env);
    return config.ok ? (config.config.sandboxWebhookSecret ?? "") : "";
  }

  /** Sends every webhook due at `nowMs` (the alarm passes the clock; tests pass a later one). */
  async deliverDueWebhooks(nowMs: number): Promise<WebhookAttemptReport[]> {
    const reports = await deliverDueWebhooks(this.store, { sandboxSecret: this.webhookSecret(), env: this.env }, nowMs);
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
