// Provider reconciliation's routes (CONTRACT §5): run a window, the latest run, and (extensions)
// the paid-after-release cases and an operator's decision on one. Mounted under
// /ops/reconciliation/provider by reconciliation.ts.
import { Hono } from "hono";
import { z } from "zod";
import { uuidPattern } from "../../lib/ids.ts";
import { caseDecisions, caseNoteLengthMax } from "../../reconciliation/case-decisions.ts";
import { reconcileProvider } from "../../reconciliation/reconcile.ts";
import { decideCase, listCases, recentRuns } from "../../reconciliation/store.ts";
import { providerReconciliationBody } from "../../reconciliation/window-request.ts";
import { notFound, problem } from "../../web/problem.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";
import { jsonRequestBody, jsonResponse, pathParameter, problemResponse, queryParameters } from "../openapi/build.ts";
import { documented } from "../openapi/describe.ts";
import { opsAuthResponses, opsSecurity } from "../openapi/security.ts";
import type { Parameter } from "../openapi/types.ts";
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

const opsProviderReconciliationDoc = documented({
  operationId: "opsProviderReconciliation",
  summary: "Hold our transfers against the provider's statement",
  description:
    "Reads the provider's whole statement for the window (every page), compares it with our transfers first sent in it, applies the returns it lists (each once, whoever else finds it) and reports every divergence with both sides. A `paid_after_release` opens a case for a person. Recorded (GET …/latest) and audited as `reconciliation_run`; any divergence raises the ops alert. A daily cron runs it for the previous São Paulo day.",
  tags: ["operators"],
  security: opsSecurity,
  requestBody: jsonRequestBody("ProviderReconciliationRequest"),
  responses: {
    "200": jsonResponse("The run.", "ProviderReconciliationRun"),
    "400": problemResponse("`from`/`to` not RFC 3339, `to` not after `from`, or more than 24 hours apart."),
    ...opsAuthResponses,
  },
});

opsProviderReconciliationRoutes.post("/", opsProviderReconciliationDoc, jsonBody(providerReconciliationBody), async (c) => {
  const { from, to } = c.req.valid("json");
  const run = await reconcileProvider(c.env, c.executionCtx, { fromMs: Date.parse(from), toMs: Date.parse(to) }, c.get("actor"));
  return c.json(run);
});

const opsProviderReconciliationLatestDoc = documented({
  operationId: "opsProviderReconciliationLatest",
  summary: "The latest provider reconciliation",
  description: "The newest run, whoever ran it (an operator, or the daily cron).",
  tags: ["operators"],
  security: opsSecurity,
  responses: {
    "200": jsonResponse("The latest run.", "ProviderReconciliationRun"),
    "404": problemResponse("No provider reconciliation has run yet."),
    ...opsAuthResponses,
  },
});

opsProviderReconciliationRoutes.get("/latest", opsProviderReconciliationLatestDoc, async (c) => {
  const [latest] = await withRequestDb(c, (db) => recentRuns(db, 1));
  if (latest === undefined) return notFound(c, "No provider reconciliation has run yet.");
  return c.json(latest);
});

const opsProviderCasesDoc = documented({
  operationId: "opsProviderCases",
  summary: "Paid-after-release cases (an extension of the contract)",
  description:
    "Transfers the provider paid after we released their hold: never corrected against the customer, each open until an operator records a decision. Oldest first.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: queryParameters(casesQuery, {
    state: "`open` (default) or `all`.",
    limit: "At most this many, 1 to 100 (default 100).",
  }),
  responses: {
    "200": jsonResponse("The cases.", "ProviderCaseList"),
    "400": problemResponse("An unknown state, a bad limit, or an unknown query parameter."),
    ...opsAuthResponses,
  },
});

opsProviderReconciliationRoutes.get("/cases", opsProviderCasesDoc, queryParams(casesQuery), async (c) => {
  const q = c.req.valid("query");
  const data = await withRequestDb(c, (db) => listCases(db, { open: q.state === "open", limit: q.limit }));
  return c.json({ data });
});

const caseIdParameter: Parameter = pathParameter("id", "The transfer the case is about.", { type: "string", format: "uuid" });

const opsProviderCaseDecideDoc = documented({
  operationId: "opsProviderCaseDecide",
  summary: "Record an operator's decision on a case (an extension of the contract)",
  description:
    "`recovered`, `written_off` or `provider_error`, with a note (required). Recorded once, with its actor, and audited as `transfer_resolved`; no money moves here.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: [caseIdParameter],
  requestBody: jsonRequestBody("CaseDecisionRequest"),
  responses: {
    "200": jsonResponse("The decided case.", "ProviderCase"),
    "400": problemResponse("An unknown decision, or no note."),
    "404": problemResponse("No case for this transfer."),
    "409": problemResponse("The case was already decided."),
    ...opsAuthResponses,
  },
});

opsProviderReconciliationRoutes.post(
  "/cases/:id/decision",
  opsProviderCaseDecideDoc,
  jsonBody(caseDecisionBody, { lineBreakFields: ["note"] }),
  async (c) => {
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
  },
);
