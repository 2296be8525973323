// GET /ops/audit (CONTRACT §5): who did what, newest first. The cursor is the id of the last
// entry shown, parsed strictly: anything the API did not issue is a 400.
import { Hono } from "hono";
import { z } from "zod";
import { listOperatorActions } from "../../audit/audit-reads.ts";
import { accountIdPattern } from "../../lib/ids.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";
import { queryParams } from "../validation.ts";

export const auditPageSizeMax = 100;
/** An Access email or `ops-token`; printable, bounded. */
const actorPattern = /^[^\s\p{Cc}]{1,320}$/u;
const cursorPattern = /^[1-9]\d{0,15}$/;

export const auditQuery = z.strictObject({
  account_id: z.string().regex(accountIdPattern).optional(),
  actor: z.string().regex(actorPattern).optional(),
  limit: z.coerce.number().int().min(1).max(auditPageSizeMax).default(50),
  cursor: z.string().regex(cursorPattern, "a next_cursor this API returned").optional(),
});

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
