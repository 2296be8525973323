// The degraded-PSP rule on its own (src/alerts/provider-health.ts): at least 10 calls over the
// window and more than half unknown; one `degraded` alert per 15 minutes however the PSP flaps,
// sent late for a spell that outlasts the quiet period; one `recovered`, only after an alert.
import { describe, expect, it } from "vitest";
import {
  degradedAlertRepeatMs,
  healthyProvider,
  isDegraded,
  observeProviderHealth,
  type ProviderHealthState,
} from "../../src/alerts/provider-health.ts";

const minuteMs = 60_000;
const down = { calls: 12, unknown: 7 };
const up = { calls: 12, unknown: 2 };

/** Observes each figure a minute apart from t = 0; the alerts sent, as `kind@minute`. */
function alertsOver(figures: readonly { calls: number; unknown: number }[], stepMs = minuteMs): string[] {
  let state: ProviderHealthState = healthyProvider;
  const alerts: string[] = [];
  figures.forEach((f, i) => {
    const observed = observeProviderHealth(state, f, i * stepMs);
    state = observed.state;
    if (observed.alert !== null) alerts.push(`${observed.alert.kind}@${(i * stepMs) / minuteMs}`);
  });
  return alerts;
}

describe("the degraded-PSP rule", () => {
  it.each([
    [{ calls: 10, unknown: 6 }, true],
    [{ calls: 10, unknown: 5 }, false],
    [{ calls: 9, unknown: 9 }, false],
    [{ calls: 0, unknown: 0 }, false],
    [{ calls: 1_000, unknown: 501 }, true],
  ])("counts %o as degraded: %s", (figures, degraded) => {
    expect(isDegraded(figures)).toBe(degraded);
  });

  it("alerts once when it starts, not again while it lasts, and once when it recovers", () => {
    expect(alertsOver([up, down, down, down, down, up, up])).toEqual(["degraded@1", "recovered@5"]);
  });

  it("keeps the spell's start while it lasts and forgets it once recovered", () => {
    const first = observeProviderHealth(healthyProvider, down, 1_000);
    expect(first.state).toEqual({ degradedSinceMs: 1_000, degradedAlertedAtMs: 1_000, spellAlerted: true });
    expect(observeProviderHealth(first.state, down, 61_000).state.degradedSinceMs).toBe(1_000);
    const recovered = observeProviderHealth(first.state, up, 61_000);
    expect(recovered).toEqual({
      state: { degradedSinceMs: null, degradedAlertedAtMs: 1_000, spellAlerted: false },
      alert: { kind: "recovered", spellSinceMs: 1_000 },
    });
  });

  it("sends at most one degraded alert per 15 minutes when the PSP flaps, and no recovered for a spell never alerted", () => {
    // Down at 0, up at 2, down again at 4 and 6 (within 15 minutes of the first alert): silent.
    expect(alertsOver([down, down, up, up, down, up, down, up])).toEqual(["degraded@0", "recovered@2"]);
  });

  it("alerts a spell held back by the 15 minutes once they have passed, if it still lasts", () => {
    const figures = [down, up, down, ...Array.from({ length: 14 }, () => down), up];
    expect(degradedAlertRepeatMs / minuteMs).toBe(15);
    // Alerted at 0, recovered at 1; down again from 2, held back until 15, then announced; recovered at 17.
    expect(alertsOver(figures)).toEqual(["degraded@0", "recovered@1", "degraded@15", "recovered@17"]);
  });
});
