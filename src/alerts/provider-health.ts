// Whether the PSP is degraded, decided from the provider evidence the saga already records: over
// the last 5 minutes at least 10 calls (sends and status checks) and more than half of them
// unknown (timeouts, 5xx, unreadable answers). Pure: the figures and the time come in, the next
// state and the alert to send (if any) come out; provider-health-object.ts keeps the state.
import type { ProviderCallFigures } from "../transfers/provider-call-figures.ts";

/** The window the figures are counted over. */
export const degradedWindowMs = 5 * 60_000;
/** Fewer calls than this say nothing either way: a quiet night is not an outage. */
export const degradedCallsMin = 10;
/** At most one `degraded` alert in this long, however often the PSP flaps. */
export const degradedAlertRepeatMs = 15 * 60_000;

export interface ProviderHealthState {
  /** When the current degraded spell was first seen; null while healthy. */
  degradedSinceMs: number | null;
  /** When the last `degraded` alert was sent. */
  degradedAlertedAtMs: number | null;
  /** Whether this spell's `degraded` alert was sent, so that its end is announced (`recovered`). */
  spellAlerted: boolean;
}

export const healthyProvider: ProviderHealthState = { degradedSinceMs: null, degradedAlertedAtMs: null, spellAlerted: false };

/** An alert to send, about the degraded spell that started at `spellSinceMs`. */
export interface HealthAlert {
  kind: "degraded" | "recovered";
  spellSinceMs: number;
}

export interface HealthObservation {
  state: ProviderHealthState;
  alert: HealthAlert | null;
}

export function isDegraded(figures: ProviderCallFigures): boolean {
  return figures.calls >= degradedCallsMin && figures.unknown * 2 > figures.calls;
}

/**
 * The state after seeing `figures` at `nowMs`. A spell's `degraded` alert waits while another was
 * sent less than 15 minutes ago (a flapping PSP is one alert, not one a minute), and is sent once
 * that has passed if the spell lasts; `recovered` is sent once, for a spell that was alerted.
 */
export function observeProviderHealth(state: ProviderHealthState, figures: ProviderCallFigures, nowMs: number): HealthObservation {
  if (!isDegraded(figures)) {
    if (state.degradedSinceMs === null) return { state, alert: null };
    const alert: HealthAlert | null = state.spellAlerted ? { kind: "recovered", spellSinceMs: state.degradedSinceMs } : null;
    return { state: { ...state, degradedSinceMs: null, spellAlerted: false }, alert };
  }
  const degradedSinceMs = state.degradedSinceMs ?? nowMs;
  const mayAlert = state.degradedAlertedAtMs === null || nowMs - state.degradedAlertedAtMs >= degradedAlertRepeatMs;
  if (state.spellAlerted || !mayAlert) return { state: { ...state, degradedSinceMs }, alert: null };
  return {
    state: { degradedSinceMs, degradedAlertedAtMs: nowMs, spellAlerted: true },
    alert: { kind: "degraded", spellSinceMs: degradedSinceMs },
  };
}
