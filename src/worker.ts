// The Worker: the Hono app (app.ts) answers requests, the cron entry runs the scheduled work, and
// the Durable Object classes are exported for their bindings.
import { app } from "./app.ts";
import { providerReconciliationCron, reconcilePreviousDay } from "./reconciliation/daily.ts";
import { sweep } from "./sweeper.ts";

export { ProviderHealth } from "./alerts/provider-health-object.ts";
export { SandboxProvider } from "./provider/sandbox/sandbox-object.ts";
export { SendGate } from "./provider/send-gate/gate-object.ts";
export { TransferSaga } from "./saga-object.ts";
export { StreamSlots } from "./saga-runtime/stream-slots-object.ts";

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    // wrangler.toml's two crons: the daily provider reconciliation, and the sweeper every minute.
    if (controller.cron === providerReconciliationCron) ctx.waitUntil(reconcilePreviousDay(env, ctx, controller.scheduledTime));
    else ctx.waitUntil(sweep(env, ctx));
  },
} satisfies ExportedHandler<Env>;
