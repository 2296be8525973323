// Our own misconfiguration seen in a provider's answer (credentials refused, Efí refusing our
// payer key): never the payment's fate, so the saga carries on (unknown keeps the hold; the
// deadline hands it to a person), but a person must fix the configuration now. Logged as one
// structured error line and, when OPS_ALERT_URL is set, POSTed there signed like every alert.
import { configOf } from "../config/isolate.ts";
import { logTransfer } from "../lib/log.ts";
import type { ProviderAlert } from "../provider/port.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";
import type { ProviderCallRecord } from "../transfers/store.ts";
import { deliverAlert } from "./deliver.ts";
import type { AlertRuntime } from "./needs-review.ts";

export const providerMisconfiguredEvent = "provider_misconfigured";

export function providerMisconfiguredPayload(saga: SagaRecord, alert: ProviderAlert, call: ProviderCallRecord, nowMs: number): string {
  return JSON.stringify({
    type: "provider.misconfigured",
    timestamp: new Date(nowMs).toISOString(),
    data: { alert, transfer_id: saga.id, provider_call: call.kind, http_status: call.httpStatus, outcome: call.outcome },
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
  try {
    // Signed with OPS_ALERT_SECRET, like every alert: the alert receiver never holds the PSP's key.
    const config = configOf(env);
    const opsAlert = config.ok ? config.config.opsAlert : null;
    logTransfer(saga.id, providerMisconfiguredEvent, { alert, http_status: call.httpStatus, alert_url_set: opsAlert !== null }, "error");
    if (opsAlert === null) return;
    const nowMs = Date.now();
    const delivery = deliverAlert({
      url: opsAlert.url,
      secret: opsAlert.secret,
      // One id per transfer, alert and minute: a receiver drops retries, yet a persisting
      // misconfiguration keeps being reported.
      webhookId: `alert_${alert}_${saga.id}_${Math.floor(nowMs / 60_000)}`,
      body: providerMisconfiguredPayload(saga, alert, call, nowMs),
      fetcher: runtime.fetcher ?? ((request) => fetch(request)),
      sleep: runtime.sleep ?? ((delayMs) => new Promise((resolve) => setTimeout(resolve, delayMs))),
      nowMs: () => Date.now(),
    });
    runtime.waitUntil(
      delivery.then(
        (result) => logTransfer(saga.id, `ops_alert_${result.outcome}`, { alert }),
        (error: unknown) => logTransfer(saga.id, "ops_alert_failed", { alert, message: String(error) }, "error"),
      ),
    );
  } catch (error) {
    logTransfer(saga.id, "ops_alert_failed", { alert, message: error instanceof Error ? error.message : String(error) }, "error");
  }
}
