// GET /ops/reconciliation (CONTRACT §5): the ledger checked against itself.
import { Hono } from "hono";
import { reconcile } from "../../ledger/ledger.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";

export const opsReconciliationRoutes = new Hono<AppEnv>();

opsReconciliationRoutes.get("/", async (c) => c.json(await withRequestDb(c, (db) => reconcile(db))));
