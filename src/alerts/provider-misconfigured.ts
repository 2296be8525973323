// Our own misconfiguration seen in a provider's answer (credentials refused, Efí refusing our
// payer key): never the payment's fate, so the saga carries on (unknown keeps the hold; the
// deadline hands it to a person), but a person must fix the configuration now. Logged as one
// structured error line and sent as a signed ops alert (schedule.ts).
import { logTransfer } from "../lib/log.ts";
import type { ProviderAlert } from "../provider/port.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";
import type { ProviderCallRecord } from "../transfers/store.ts";
import { type AlertRuntime, alertBody, scheduleOpsAlert } from "./schedule.ts";

export const providerMisconfiguredEvent = "provider_misconfigured";

export function providerMisconfiguredPayload(saga: SagaRecord, alert: ProviderAlert, call: ProviderCallRecord, nowMs: number): string {
  return alertBody("provider.misconfigured", nowMs, {
    alert,
    transfer_id: saga.id,
    provider_call: call.kind,
    http_status: call.httpStatus,
    outcome: call.outcome,
  });
}

/** Never throws into the saga step that saw it; delivery runs beside the step (waitUntil). */
export function noticeProviderMisconfigured(
  env: Env,
  runtime: AlertRuntime,
  saga: SagaRecord,
  alert: ProviderAlert,
  call: ProviderCallRecord,
): void {
  const nowMs = Date.now();
  const alertUrlSet = scheduleOpsAlert(env, runtime, {
    // One id per transfer, alert and minute: a receiver drops retries, yet a persisting
    // misconfiguration keeps being reported.
    webhookId: `alert_${alert}_${saga.id}_${Math.floor(nowMs / 60_000)}`,
    body: providerMisconfiguredPayload(saga, alert, call, nowMs),
    context: { transfer_id: saga.id, alert },
  });
  logTransfer(saga.id, providerMisconfiguredEvent, { alert, http_status: call.httpStatus, alert_url_set: alertUrlSet }, "error");
}
