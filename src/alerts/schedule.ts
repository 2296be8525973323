// One ops alert sent beside the work that raised it: when OPS_ALERT_URL is set, POSTed there
// signed with OPS_ALERT_SECRET (deliver.ts retries), its own key so the alert receiver never
// holds the one that verifies the provider; scheduled with waitUntil so the caller never waits
// on it, its outcome logged with `context`. Never throws: an alert must not fail the work that
// raised it, and the console stays the source of truth if one is lost.
import { configOf } from "../config/isolate.ts";
import { logEvent } from "../lib/log.ts";
import { sleep } from "../lib/sleep.ts";
import { type DeliveryResult, deliverAlert, type Fetcher } from "./deliver.ts";

export interface AlertRuntime {
  waitUntil(promise: Promise<unknown>): void;
  fetcher?: Fetcher;
  sleep?: (delayMs: number) => Promise<void>;
}

/** Every alert's body: its type, when it was raised, and what a person needs to act. */
export function alertBody(type: string, nowMs: number, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: new Date(nowMs).toISOString(), data });
}

/** The outcome line's fields, in the log's snake_case. */
function outcomeFields(result: DeliveryResult): Record<string, string | number> {
  return result.outcome === "gave_up"
    ? { attempts: result.attempts, last_problem: result.lastProblem }
    : { attempts: result.attempts, status: result.status };
}

/** A person must look at an alert that did not arrive; a delivered one is routine. */
const outcomeLevel = (result: DeliveryResult) => (result.outcome === "delivered" ? "info" : "error");

/** Returns whether OPS_ALERT_URL is set, for the caller's own log line. */
export function scheduleOpsAlert(
  env: Env,
  runtime: AlertRuntime,
  alert: { webhookId: string; body: string; context: Record<string, string> },
): boolean {
  try {
    // A malformed URL or a missing key is a configuration problem (src/config/): the Worker then
    // serves nothing, and the caller's line is all that is left.
    const config = configOf(env);
    const opsAlert = config.ok ? config.config.opsAlert : null;
    if (opsAlert === null) return false;
    const delivery = deliverAlert({
      url: opsAlert.url,
      secret: opsAlert.secret,
      webhookId: alert.webhookId,
      body: alert.body,
      fetcher: runtime.fetcher ?? ((request) => fetch(request)),
      sleep: runtime.sleep ?? sleep,
      nowMs: () => Date.now(),
    }).then((result) => logEvent(`ops_alert_${result.outcome}`, { ...alert.context, ...outcomeFields(result) }, outcomeLevel(result)));
    runtime.waitUntil(
      delivery.catch((error: unknown) => logEvent("ops_alert_failed", { ...alert.context, message: String(error) }, "error")),
    );
    return true;
  } catch (error) {
    logEvent("ops_alert_failed", { ...alert.context, message: error instanceof Error ? error.message : String(error) }, "error");
    return false;
  }
}
