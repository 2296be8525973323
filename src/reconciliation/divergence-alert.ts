// A provider reconciliation run that found divergences (or could not read the whole statement)
// needs a person: logged as `provider_reconciliation_divergence` and, when OPS_ALERT_URL is set,
// POSTed there signed like every ops alert. Delivery runs beside the run (waitUntil) and never
// throws into it; the console's page and /latest stay the source of truth if an alert is lost.

import { type AlertRuntime, alertBody, scheduleOpsAlert } from "../alerts/schedule.ts";
import type { RunJson } from "./store.ts";

export const providerDivergenceEvent = "provider_reconciliation_divergence";

/** Divergences one alert carries; the rest are a click away (the run's id). */
const divergencesPerAlertMax = 20;

export function providerDivergencePayload(run: RunJson, nowMs: number): string {
  return alertBody("provider_reconciliation.divergence", nowMs, {
    run_id: run.run_id,
    from: run.from,
    to: run.to,
    statement: run.statement,
    divergences_count: run.divergences.length,
    divergences: run.divergences.slice(0, divergencesPerAlertMax),
  });
}

/** Acts only on a run that is not ok. */
export function noticeProviderDivergence(env: Env, runtime: AlertRuntime, run: RunJson): void {
  if (run.ok) return;
  const kinds = run.divergences.map((d) => (typeof d === "object" && d !== null && !Array.isArray(d) ? d.kind : null));
  console.error(
    JSON.stringify({
      event: providerDivergenceEvent,
      run_id: run.run_id,
      from: run.from,
      to: run.to,
      divergences: run.divergences.length,
      kinds,
      statement_problem: run.statement.problem,
    }),
  );
  scheduleOpsAlert(env, runtime, {
    webhookId: `alert_provider_reconciliation_${run.run_id}`,
    body: providerDivergencePayload(run, Date.now()),
    context: { run_id: run.run_id },
  });
}
