// The daily provider reconciliation (CONTRACT §5): the cron of wrangler.toml named here runs it
// for the previous São Paulo day, recorded as the `cron` actor. Fails closed like the sweeper:
// a misconfigured Worker reads nothing. Never throws into the scheduled handler.
import type { AlertRuntime } from "../alerts/schedule.ts";
import { configOf } from "../config/isolate.ts";
import { cronActor, reconcileProvider } from "./reconcile.ts";
import type { RunJson } from "./store.ts";
import { previousSaoPauloDay } from "./window.ts";

/** 00:30 in São Paulo (03:30 UTC): the day is over, and its last sends have had time to settle. */
export const providerReconciliationCron = "30 3 * * *";

export async function reconcilePreviousDay(env: Env, runtime: AlertRuntime, scheduledTimeMs: number): Promise<RunJson | null> {
  const config = configOf(env);
  if (!config.ok) {
    console.error(
      JSON.stringify({ event: "provider_reconciliation_refused_misconfigured", problems: config.problems.map((p) => p.variable) }),
    );
    return null;
  }
  // The wall clock's day, not business time's: the provider's statement and our sends are both
  // recorded at real instants (docs/clock.md, "Which rules follow it").
  const window = previousSaoPauloDay(scheduledTimeMs);
  try {
    return await reconcileProvider(env, runtime, window, cronActor);
  } catch (error) {
    console.error(
      JSON.stringify({
        event: "provider_reconciliation_failed",
        day: window.day,
        message: error instanceof Error ? error.message : String(error),
      }),
    );
    return null;
  }
}
