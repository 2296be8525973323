// Provider reconciliation's routes (CONTRACT §5): run a window, the latest run, and (extensions)
// the paid-after-release cases and an operator's decision on one. Mounted under
// /ops/reconciliation/provider by reconciliation.ts.
import { Hono } from "hono";
import { z } from "zod";
import { uuidPattern } from "../../lib/ids.ts";
import { reconcileProvider } from "../../reconciliation/reconcile.ts";
import { caseDecisions, caseNoteLengthMax } from "../../reconciliation/schema.ts";
import { decideCase, listCases, recentRuns } from "../../reconciliation/store.ts";
import { providerReconciliationBody } from "../../reconciliation/window-request.ts";
import { notFound, problem } from "../../web/problem.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";
import { jsonBody, queryParams } from "../validation.ts";

export const casesQuery = z.strictObject({
  state: z.enum(["open", "all"]).default("open"),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});

export const caseDecisionBody = z.strictObject({
  decision: z.enum(caseDecisions),
  note: z.string().trim().min(1).max(caseNoteLengthMax),
});

export const opsProviderReconciliationRoutes = new Hono<AppEnv>();

opsProviderReconciliationRoutes.post("/", jsonBody(providerReconciliationBody), async (c) => {
  const { from, to } = c.req.valid("json");
  const run = await reconcileProvider(c.env, c.executionCtx, { fromMs: Date.parse(from), toMs: Date.parse(to) }, c.get("actor"));
  return c.json(run);
});

opsProviderReconciliationRoutes.get("/latest", async (c) => {
  const [latest] = await withRequestDb(c, (db) => recentRuns(db, 1));
  if (latest === undefined) return notFound(c, "No provider reconciliation has run yet.");
  return c.json(latest);
});

opsProviderReconciliationRoutes.get("/cases", queryParams(casesQuery), async (c) => {
  const q = c.req.valid("query");
  const data = await withRequestDb(c, (db) => listCases(db, { open: q.state === "open", limit: q.limit }));
  return c.json({ data });
});

opsProviderReconciliationRoutes.post("/cases/:id/decision", jsonBody(caseDecisionBody, { lineBreakFields: ["note"] }), async (c) => {
  const id = c.req.param("id");
  if (!uuidPattern.test(id)) return notFound(c, "No such case.");
  const { decision, note } = c.req.valid("json");
  const outcome = await withRequestDb(c, async (db) => {
    const result = await decideCase(db, id, c.get("actor"), decision, note);
    const [decided] = await listCases(db, { open: false, limit: 1, transferId: id });
    return { result, decided };
  });
  if (outcome.result === "not_found") return notFound(c, "No such case.");
  if (outcome.result === "already_decided") return problem(c, 409, { type: "conflict", detail: "This case was already decided." });
  return c.json(outcome.decided);
});
