// The sandbox provider's HTTP API under /sandbox (CONTRACT §4), mounted in one place so its
// guards come before every route: off means absent (a 404 problem, our own API's only answer
// here), an outage answers the PSP routes 503, and the PSP token guards what a PSP would. The
// routes live by job: the PSP payment API the HTTP adapter speaks (sandbox-payments.ts), dynamic
// BR Codes (sandbox-br-codes.ts), contestations (sandbox-contestations.ts), Efí's dialect
// (efi-routes.ts), the test clock (sandbox-clock.ts) and the drills (sandbox-drills.ts).
import { Hono, type MiddlewareHandler } from "hono";
import { configOf } from "../config/isolate.ts";
import { sandboxEfiRoutes } from "../provider/sandbox/efi-routes.ts";
import { sandbox } from "../provider/sandbox/reply.ts";
import { callObject } from "../web/object-call.ts";
import { notFound } from "../web/problem.ts";
import { sandboxBrCodeRoutes } from "./sandbox-br-codes.ts";
import { sandboxClockRoutes } from "./sandbox-clock.ts";
import { sandboxContestationRoutes } from "./sandbox-contestations.ts";
import { sandboxDrillRoutes } from "./sandbox-drills.ts";
import type { SandboxEnv } from "./sandbox-env.ts";
import { sandboxPaymentRoutes } from "./sandbox-payments.ts";
import { requireProviderToken } from "./sandbox-psp-token.ts";

export const sandboxRoutes = new Hono<SandboxEnv>();

// Off means absent: production must not even reveal that the sandbox exists.
sandboxRoutes.use("*", async (c, next) => {
  const config = configOf(c.env);
  if (!config.ok || !config.config.sandboxEnabled) {
    return notFound(c, `Nothing at ${c.req.method} ${c.req.path}.`);
  }
  c.set("config", config.config);
  await next();
});

// Efí's dialect over the same payments (efi-routes.ts).
sandboxRoutes.route("/efi", sandboxEfiRoutes);

// The test clock (sandbox-clock.ts): business time moved forward for calendar rules.
sandboxRoutes.route("/clock", sandboxClockRoutes);

const duringOutage: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  if (await callObject(c, "sandbox.in_outage", () => sandbox(c).inOutage())) return c.json({ code: "unavailable" }, 503);
  await next();
};
sandboxRoutes.use("/provider/pix/*", duringOutage);
sandboxRoutes.use("/provider/dict/*", duringOutage);
// The contestation API (sandbox-contestations.ts), behind the same token check as the rest.
sandboxRoutes.use("/provider/pix/:idempotency_key/contestations", requireProviderToken());
sandboxRoutes.use("/provider/contestations/*", requireProviderToken());
sandboxRoutes.route("/", sandboxContestationRoutes);

// The PSP API (sandbox-payments.ts) and dynamic BR Codes (sandbox-br-codes.ts).
sandboxRoutes.route("/", sandboxPaymentRoutes);
sandboxRoutes.route("/", sandboxBrCodeRoutes);

// The drills (sandbox-drills.ts): an outage of the PSP API, and what the sandbox holds.
sandboxRoutes.route("/", sandboxDrillRoutes);
