// GET /ops/audit (CONTRACT §5): who did what, newest first. The cursor is the sealed id of the
// last entry shown: anything the API did not issue is a 400.
import { Hono } from "hono";
import { listOperatorActions } from "../../audit/audit-reads.ts";
import { auditBeforeId, auditNextCursor } from "../../audit/cursor.ts";
import { auditQuery } from "../../audit/query.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";
import { jsonResponse, problemResponse, queryParameters } from "../openapi/build.ts";
import { documented } from "../openapi/describe.ts";
import { opsAuthResponses, opsSecurity } from "../openapi/security.ts";
import { queryParams, validationProblem } from "../validation.ts";

export const opsAuditRoutes = new Hono<AppEnv>();

const opsAuditDoc = documented({
  operationId: "opsAudit",
  summary: "Operator actions, newest first",
  description:
    "Every operator action with its actor (an Access email, or `ops-token`), time and what changed: account creation, credits and their approvals, limit changes (old and new values), transfer resolutions, reconciliation runs.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: queryParameters(auditQuery, {
    account_id: "Only this account's actions.",
    actor: "Only this actor's actions.",
    limit: "At most this many, 1 to 100 (default 50).",
    cursor: "The `next_cursor` of the previous page.",
  }),
  responses: {
    "200": jsonResponse("A page of actions.", "AuditPage"),
    "400": problemResponse("A malformed filter or limit, a cursor this API did not issue, or an unknown query parameter."),
    ...opsAuthResponses,
  },
});

opsAuditRoutes.get("/", opsAuditDoc, queryParams(auditQuery), async (c) => {
  const q = c.req.valid("query");
  const beforeId = await auditBeforeId(c.env, q.cursor);
  if (beforeId === "not_issued") return validationProblem(c, [{ field: "cursor", message: "not a cursor from this API" }]);
  const page = await withRequestDb(c, (db) =>
    listOperatorActions(db, {
      accountId: q.account_id ?? null,
      // Access emails are recorded lowercased.
      actor: q.actor?.toLowerCase() ?? null,
      limit: q.limit,
      beforeId,
    }),
  );
  return c.json({ data: page.data, next_cursor: await auditNextCursor(c.env, page.nextBeforeId) });
});
