// Provider reconciliation wired to the Worker: its pool, its provider adapter, the transfers'
// objects (a return applied here has its event delivered now), and the alert. The route and the
// daily cron both call this.

import type { AlertRuntime } from "../alerts/schedule.ts";
import { httpDb } from "../db/http.ts";
import { dbSettings } from "../db/settings.ts";
import { logEvent } from "../lib/log.ts";
import { providerFor } from "../provider/select.ts";
import { noticeProviderDivergence } from "./divergence-alert.ts";
import { runProviderReconciliation } from "./run.ts";
import type { RunJson } from "./store.ts";
import type { Window } from "./window.ts";

/** The actor the daily run is recorded as. */
export const cronActor = "cron";

export async function reconcileProvider(env: Env, runtime: AlertRuntime, window: Window, actor: string): Promise<RunJson> {
  // Every statement of a run stands alone (each write is one SQL function call): Neon's HTTP path.
  const db = httpDb({ ...dbSettings(env), applicationName: "pix-reconciliation" });
  const run = await runProviderReconciliation(
    {
      db,
      provider: providerFor(env),
      returned: async (transferId) => env.TRANSFER_SAGA.getByName(transferId).deliverEvents(),
    },
    window,
    actor,
  );
  logEvent("provider_reconciliation", {
    run_id: run.run_id,
    from: run.from,
    to: run.to,
    ok: run.ok,
    checked: run.checked,
    returns_applied: run.returns_applied,
    divergences: run.divergences.length,
  });
  noticeProviderDivergence(env, runtime, run);
  return run;
}
