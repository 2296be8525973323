// The Hono app: mounts route modules, the error handler and the cron entry.
import { Hono } from "hono";
import { withPool } from "./db/pool.ts";
import { dbSettings } from "./db/settings.ts";
import type { Env } from "./env.ts";
import { webhookRoutes } from "./http/webhooks.ts";
import { sandboxRoutes } from "./provider/sandbox/routes.ts";

export { SandboxProvider } from "./provider/sandbox/sandbox-object.ts";
export { TransferSaga } from "./saga-object.ts";

const app = new Hono<{ Bindings: Env }>();

app.get("/healthz", async (c) => {
  try {
    await withPool(dbSettings(c.env), (pool) => pool.query("SELECT 1"));
    return c.json({ status: "ok" });
  } catch {
    return c.json({ status: "unavailable" }, 503);
  }
});

app.route("/webhooks", webhookRoutes);
app.route("/sandbox", sandboxRoutes);

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
