// One ops alert sent beside the work that raised it: when OPS_ALERT_URL is set, POSTed there
// signed with OPS_ALERT_SECRET (deliver.ts retries), scheduled with waitUntil so the caller never
// waits on it, its outcome logged with `context`. Never throws.
import { configOf } from "../config/isolate.ts";
import { logEvent } from "../lib/log.ts";
import { deliverAlert } from "./deliver.ts";
import type { AlertRuntime } from "./needs-review.ts";

export function scheduleOpsAlert(
  env: Env,
  runtime: AlertRuntime,
  alert: { webhookId: string; body: string; context: Record<string, string> },
): void {
  const config = configOf(env);
  const opsAlert = config.ok ? config.config.opsAlert : null;
  if (opsAlert === null) return;
  const delivery = deliverAlert({
    url: opsAlert.url,
    secret: opsAlert.secret,
    webhookId: alert.webhookId,
    body: alert.body,
    fetcher: runtime.fetcher ?? ((request) => fetch(request)),
    sleep: runtime.sleep ?? ((delayMs) => new Promise((resolve) => setTimeout(resolve, delayMs))),
    nowMs: () => Date.now(),
  }).then((result) => logEvent(`ops_alert_${result.outcome}`, alert.context));
  runtime.waitUntil(
    delivery.catch((error: unknown) => logEvent("ops_alert_failed", { ...alert.context, message: String(error) }, "error")),
  );
}
