// GET /ops/audit (CONTRACT §5): who did what, newest first. The cursor is the id of the last
// entry shown, parsed strictly: anything the API did not issue is a 400.
import { Hono } from "hono";
import { listOperatorActions } from "../../audit/audit-reads.ts";
import { auditQuery } from "../../audit/query.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";
import { jsonResponse, problemResponse, queryParameters } from "../openapi/build.ts";
import { documented } from "../openapi/describe.ts";
import { opsAuthResponses, opsSecurity } from "../openapi/security.ts";
import { queryParams } from "../validation.ts";

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
  const page = await withRequestDb(c, (db) =>
    listOperatorActions(db, {
      accountId: q.account_id ?? null,
      // Access emails are recorded lowercased.
      actor: q.actor?.toLowerCase() ?? null,
      limit: q.limit,
      beforeId: q.cursor === undefined ? null : Number(q.cursor),
    }),
  );
  return c.json({ data: page.data, next_cursor: page.nextBeforeId === null ? null : String(page.nextBeforeId) });
});
