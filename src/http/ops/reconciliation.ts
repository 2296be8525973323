// GET /ops/reconciliation (CONTRACT §5): the ledger checked against itself; /provider holds our
// transfers against the provider's statement. Each run is recorded
// with its actor and its verdict.
import { Hono } from "hono";
import { recordAction } from "../../audit/operator-writes.ts";
import { reconcile } from "../../ledger/ledger.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";
import { jsonResponse } from "../openapi/build.ts";
import { documented } from "../openapi/describe.ts";
import { opsAuthResponses, opsSecurity } from "../openapi/security.ts";
import { opsProviderReconciliationRoutes } from "./provider-reconciliation.ts";

export const opsReconciliationRoutes = new Hono<AppEnv>();

// Our transfers against the provider's statement (provider-reconciliation.ts).
opsReconciliationRoutes.route("/provider", opsProviderReconciliationRoutes);

const opsReconciliationDoc = documented({
  operationId: "opsReconciliation",
  summary: "Check the ledger",
  description:
    "Every balance equals the sum of its entries, every held amount equals its open holds, and all entries sum to zero. Divergences are reported, never repaired.",
  tags: ["operators"],
  security: opsSecurity,
  responses: { "200": jsonResponse("The report.", "Reconciliation"), ...opsAuthResponses },
});

opsReconciliationRoutes.get("/", opsReconciliationDoc, async (c) => {
  const report = await withRequestDb(c, async (db) => {
    const result = await reconcile(db);
    await recordAction(db, {
      actor: c.get("actor"),
      action: "reconciliation_run",
      accountId: null,
      details: { kind: "ledger", ok: result.ok, accounts_checked: result.accounts_checked, divergences: result.divergences.length },
    });
    return result;
  });
  return c.json(report);
});
