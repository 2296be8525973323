// GET /ops/audit (CONTRACT §5): who did what, newest first. The cursor is the id of the last
// entry shown, parsed strictly: anything the API did not issue is a 400.
import { Hono } from "hono";
import { listOperatorActions } from "../../audit/audit-reads.ts";
import { auditQuery } from "../../audit/query.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";
import { queryParams } from "../validation.ts";

export const opsAuditRoutes = new Hono<AppEnv>();

opsAuditRoutes.get("/", queryParams(auditQuery), async (c) => {
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
