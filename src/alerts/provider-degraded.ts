// The degraded-PSP alert (docs/runbooks.md): each sweep (every minute, and POST /ops/sweep)
// counts the provider calls of the last 5 minutes, the provider's health object decides
// (provider-health.ts), and a change is sent as a signed ops alert: `provider.degraded` at most
// once per 15 minutes, `provider.recovered` once when it ends. The sweeper is where this runs:
// it runs every minute whatever the traffic, one indexed read and one object call, off the
// saga's path; evaluating after each provider call would add a read to every saga step.
import type { Queryable } from "../db/queryable.ts";
import { logEvent } from "../lib/log.ts";
import { providerCallFiguresSince } from "../transfers/provider-call-figures.ts";
import { degradedWindowMs, type HealthObservation, type ProviderHealthState } from "./provider-health.ts";
import { providerConfiguration } from "./provider-misconfigured.ts";
import { type AlertRuntime, alertBody, scheduleOpsAlert } from "./schedule.ts";

export interface HealthCheck {
  nowMs: number;
  /** The window's start: the last 5 minutes unless a test counts only its own calls. */
  sinceMs: number;
  /** Whose health: the provider configuration, unless a test keeps a state of its own. */
  scope: string;
}

/** Observes the provider's health now; never throws into the sweep (a failure is logged). */
export async function noticeProviderHealth(
  env: Env,
  runtime: AlertRuntime,
  db: Queryable,
  check: Partial<HealthCheck> = {},
): Promise<HealthObservation | null> {
  const nowMs = check.nowMs ?? Date.now();
  const scope = check.scope ?? providerConfiguration(env);
  try {
    const figures = await providerCallFiguresSince(db, check.sinceMs ?? nowMs - degradedWindowMs);
    const observation = await env.PROVIDER_HEALTH.getByName(scope).observe(figures, nowMs);
    const { alert } = observation;
    if (alert === null) return observation;
    const spellSince = new Date(alert.spellSinceMs).toISOString();
    const alertSent = scheduleOpsAlert(env, runtime, {
      // One id per spell and kind, the same in every try and every isolate: a receiver drops a repeat.
      webhookId: `alert_provider_${alert.kind}_${scope}_${alert.spellSinceMs}`,
      body: alertBody(`provider.${alert.kind}`, nowMs, {
        configuration: scope,
        window_minutes: degradedWindowMs / 60_000,
        calls: figures.calls,
        unknown: figures.unknown,
        degraded_since: spellSince,
      }),
      context: { alert: `provider_${alert.kind}`, configuration: scope },
    });
    const level = alert.kind === "degraded" ? "error" : "info";
    logEvent(`provider_${alert.kind}`, { configuration: scope, ...figures, degraded_since: spellSince, alert_sent: alertSent }, level);
    return observation;
  } catch (error) {
    logEvent("provider_health_fault", { configuration: scope, message: error instanceof Error ? error.message : String(error) }, "error");
    return null;
  }
}

/** For GET /ops/overview: whether the provider is degraded now, and since when. */
export async function providerHealthNow(env: Env): Promise<{ degraded: boolean; degraded_since: string | null }> {
  const state: ProviderHealthState = await env.PROVIDER_HEALTH.getByName(providerConfiguration(env)).state();
  const since = state.degradedSinceMs;
  return { degraded: since !== null, degraded_since: since === null ? null : new Date(since).toISOString() };
}
