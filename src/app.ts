// The Hono app: mounts one route module per resource and the error handling; worker.ts serves it.
// Data flows one way: request -> validation -> saga object -> ledger/provider -> response.
import { Hono } from "hono";
import { consoleRoutes } from "./console/app.tsx";
import type { AppEnv } from "./http/app-env.ts";
import { clientAuth } from "./http/auth/client-auth.ts";
import { opsAuth } from "./http/auth/ops-auth.ts";
import { opsSameOrigin } from "./http/auth/ops-same-origin.ts";
import { balanceRoutes } from "./http/balance.ts";
import { limitBody } from "./http/body-limit.ts";
import { brCodeRoutes } from "./http/br-codes.ts";
import { requireConfiguration } from "./http/configured.ts";
import { efiWebhookRoutes } from "./http/efi-webhooks.ts";
import { healthRoutes } from "./http/health.ts";
import { limitRoutes, opsLimitRoutes } from "./http/limits.ts";
import { noStore } from "./http/no-store.ts";
import { apiDocsRoutes } from "./http/openapi/routes.ts";
import { opsAccountRoutes } from "./http/ops/accounts.ts";
import { opsAuditRoutes } from "./http/ops/audit.ts";
import { opsCreditRoutes } from "./http/ops/credits.ts";
import { opsEventRoutes } from "./http/ops/events.ts";
import { opsOverviewRoutes } from "./http/ops/overview.ts";
import { opsReconciliationRoutes } from "./http/ops/reconciliation.ts";
import { opsSweepRoutes, opsTransferRoutes } from "./http/ops/transfers.ts";
import { opsJsonBody } from "./http/ops-json-body.ts";
import { pixKeyRoutes } from "./http/pix-keys.ts";
import { requestId } from "./http/request-id.ts";
import { sandboxRoutes } from "./http/sandbox.ts";
import { transferRoutes } from "./http/transfers.ts";
import { refuseControlCharactersInUrl } from "./http/url-text.ts";
import { webhookRoutes } from "./http/webhooks.ts";
import { installProblemHandlers, rejectWrongMethods } from "./web/problem.ts";

export const app = new Hono<AppEnv>();
installProblemHandlers(app);
app.use(requestId());
// Before everything else that answers: a misconfigured Worker serves nothing but /healthz.
app.use(requireConfiguration());
app.use(rejectWrongMethods(app));
app.use(refuseControlCharactersInUrl());
app.use(limitBody());

app.use("/v1/*", noStore());
app.use("/ops/*", noStore());
app.use("/v1/*", clientAuth());
app.use("/ops/*", opsSameOrigin());
app.use("/ops/*", opsAuth());
app.use("/ops/*", opsJsonBody());

app.route("/healthz", healthRoutes);
app.route("/", apiDocsRoutes(app));
app.route("/v1/transfers", transferRoutes);
app.route("/v1/balance", balanceRoutes);
app.route("/v1/br-codes", brCodeRoutes);
app.route("/v1/limits", limitRoutes);
app.route("/v1/pix-keys", pixKeyRoutes);
app.route("/ops/accounts", opsAccountRoutes);
app.route("/ops/accounts", opsLimitRoutes);
app.route("/ops/credits", opsCreditRoutes);
app.route("/ops/audit", opsAuditRoutes);
app.route("/ops/transfers", opsTransferRoutes);
app.route("/ops/reconciliation", opsReconciliationRoutes);
app.route("/ops/sweep", opsSweepRoutes);
app.route("/webhooks/efi", efiWebhookRoutes);
app.route("/ops/events", opsEventRoutes);
app.route("/ops/overview", opsOverviewRoutes);
app.route("/webhooks", webhookRoutes);
app.route("/sandbox", sandboxRoutes);
app.route("/console", consoleRoutes);
