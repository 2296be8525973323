// Our own misconfiguration seen in a provider's answer (credentials refused, Efí refusing our
// payer key), which a person must fix now. The alert does not decide the payment's fate: refused
// credentials are unknown (the hold is kept; the deadline hands it to a person), and Efí's
// `chave_invalida` is its definitive refusal of that send (compensated, CONTRACT §4b). Logged as one
// structured error line at every step that sees it, and sent as a signed ops alert
// (schedule.ts) once per configuration and hour: one broken credential seen by a thousand sagas
// is one problem, not a thousand alerts.
import { configOf } from "../config/isolate.ts";
import { logTransfer } from "../lib/log.ts";
import type { ProviderAlert } from "../provider/port.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";
import type { ProviderCallRecord } from "../transfers/store.ts";
import { type AlertRuntime, alertBody, scheduleOpsAlert } from "./schedule.ts";

export const providerMisconfiguredEvent = "provider_misconfigured";
/** A misconfiguration still seen after this is alerted again: fixed by a person, not by waiting. */
export const providerAlertRepeatMs = 60 * 60_000;
/** Bounds the isolate's memory of alerts sent; a configuration rarely changes within one. */
const alertedMax = 64;
/** The isolate's memory: ids of the alerts (alert, configuration, hour) it has sent. */
const isolateAlertsSent = new Set<string>();

/**
 * Which configuration the alert is about, in words a person recognises and without a secret:
 * the provider, its host, and for Efí the client id. Also part of the alert's webhook id.
 */
export function providerConfiguration(env: Env): string {
  const config = configOf(env);
  if (!config.ok) return "invalid";
  const provider = config.config.provider;
  const label =
    provider.kind === "efi"
      ? `efi:${provider.clientId}@${new URL(provider.baseUrl).host}`
      : provider.kind === "http"
        ? `http:${new URL(provider.url).host}`
        : "sandbox";
  return label.replace(/[^A-Za-z0-9_.:@-]/g, "-").slice(0, 100);
}

export function providerMisconfiguredPayload(
  saga: SagaRecord,
  alert: ProviderAlert,
  call: ProviderCallRecord,
  configuration: string,
  nowMs: number,
): string {
  return alertBody("provider.misconfigured", nowMs, {
    alert,
    configuration,
    // The transfer whose step saw it first: an example, every in-flight transfer is affected.
    transfer_id: saga.id,
    provider_call: call.kind,
    http_status: call.httpStatus,
    outcome: call.outcome,
  });
}

/**
 * Never throws into the saga step that saw it; delivery runs beside the step (waitUntil).
 * `sent`: the alerts already sent, the isolate's unless a test brings its own.
 */
export function noticeProviderMisconfigured(
  env: Env,
  runtime: AlertRuntime,
  saga: SagaRecord,
  alert: ProviderAlert,
  call: ProviderCallRecord,
  sent: Set<string> = isolateAlertsSent,
): void {
  const nowMs = Date.now();
  const configuration = providerConfiguration(env);
  // One id per alert, configuration and hour, the same in every isolate: a receiver drops what
  // other isolates send for the same hour, and a persisting misconfiguration is reported again.
  const webhookId = `alert_${alert}_${configuration}_${Math.floor(nowMs / providerAlertRepeatMs)}`;
  let alertSent = false;
  if (!sent.has(webhookId)) {
    alertSent = scheduleOpsAlert(env, runtime, {
      webhookId,
      body: providerMisconfiguredPayload(saga, alert, call, configuration, nowMs),
      context: { transfer_id: saga.id, alert },
    });
    if (alertSent) {
      if (sent.size >= alertedMax) sent.clear();
      sent.add(webhookId);
    }
  }
  logTransfer(saga.id, providerMisconfiguredEvent, { alert, http_status: call.httpStatus, alert_sent: alertSent }, "error");
}
