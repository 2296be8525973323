// GET /ops/reconciliation (CONTRACT §5): the ledger checked against itself; /provider holds our
// transfers against the provider's statement. A GET is a read and writes nothing, not even an
// audit row (a page could make a browser send it); the audited run, `reconciliation_run`, is
// the POST of /provider (and the console's button).
import { Hono } from "hono";
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
    "Every balance equals the sum of its entries, every held amount equals its open holds, and all entries sum to zero. Divergences are reported, never repaired. A read: nothing is recorded.",
  tags: ["operators"],
  security: opsSecurity,
  responses: { "200": jsonResponse("The report.", "Reconciliation"), ...opsAuthResponses },
});

opsReconciliationRoutes.get("/", opsReconciliationDoc, async (c) => c.json(await withRequestDb(c, (db) => reconcile(db))));
