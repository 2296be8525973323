// A send or status answer naming another amount or key than the order (CONTRACT §4: such an
// answer is unknown, never success): money may have left as something else than was held, a
// dynamic charge changed in the instant before its send, or a provider fault. Critical: a
// person must look now, since the saga only keeps asking until its deadline. Logged as one
// error line and sent as a signed ops alert (schedule.ts), once per transfer and call kind.
import { logTransfer } from "../lib/log.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";
import type { ProviderCallRecord } from "../transfers/store.ts";
import { type AlertRuntime, alertBody, scheduleOpsAlert } from "./schedule.ts";

export const orderMismatchEvent = "provider_order_mismatch";

export function orderMismatchPayload(saga: SagaRecord, call: ProviderCallRecord, nowMs: number): string {
  return alertBody("provider.order_mismatch", nowMs, {
    severity: "critical",
    transfer_id: saga.id,
    account_id: saga.accountId,
    ordered: { amount_cents: saga.amountCents, pix_key_type: saga.pixKeyType, br_code: saga.brCode !== undefined },
    provider_call: call.kind,
    http_status: call.httpStatus,
    // The call's detail holds the answer's body as the provider sent it (bounded by the adapter).
    detail: call.detail ?? null,
  });
}

/** Never throws into the saga step that saw it; delivery runs beside the step (waitUntil). */
export function noticeOrderMismatch(env: Env, runtime: AlertRuntime, saga: SagaRecord, call: ProviderCallRecord): void {
  const alertUrlSet = scheduleOpsAlert(env, runtime, {
    // Repeated checks say the same thing: one message per transfer and call kind.
    webhookId: `alert_order_mismatch_${saga.id}_${call.kind}`,
    body: orderMismatchPayload(saga, call, Date.now()),
    context: { transfer_id: saga.id, alert: "order_mismatch" },
  });
  logTransfer(
    saga.id,
    orderMismatchEvent,
    { severity: "critical", provider_call: call.kind, http_status: call.httpStatus, alert_url_set: alertUrlSet },
    "error",
  );
}
