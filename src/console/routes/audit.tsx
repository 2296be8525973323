// The audit page (the console's view of GET /ops/audit): read only.
import { Hono } from "hono";
import { listOperatorActions } from "../../audit/audit-reads.ts";
import { auditBeforeId, auditNextCursor } from "../../audit/cursor.ts";
import { auditQuery } from "../../audit/query.ts";
import type { ConsoleEnv } from "../console-env.ts";
import { withConsoleDb } from "../data/db.ts";
import { page } from "../render.tsx";
import { AuditPage } from "../views/audit.tsx";
import { RefusalPage } from "../views/refusal.tsx";

const pageSize = 50;

export const auditPages = new Hono<ConsoleEnv>();

auditPages.get("/audit", async (c) => {
  // Empty form fields mean "any".
  const raw = Object.fromEntries(Object.entries(c.req.query()).filter(([, value]) => value !== ""));
  const parsed = auditQuery.safeParse({ ...raw, limit: String(pageSize) });
  const beforeId = parsed.success ? await auditBeforeId(c.env, parsed.data.cursor) : "not_issued";
  if (!parsed.success || beforeId === "not_issued") {
    return page(
      c,
      <RefusalPage
        title="Audit"
        message="That filter is not valid: an account id, an actor's email or ops-token."
        csrfToken={c.var.csrfToken}
      />,
      400,
    );
  }
  const q = parsed.data;
  const result = await withConsoleDb(c.env, (db) =>
    listOperatorActions(db, {
      accountId: q.account_id ?? null,
      actor: q.actor?.toLowerCase() ?? null,
      limit: q.limit,
      beforeId,
    }),
  );
  return page(
    c,
    <AuditPage
      entries={result.data}
      actor={q.actor ?? ""}
      accountId={q.account_id ?? ""}
      nextCursor={await auditNextCursor(c.env, result.nextBeforeId)}
      csrfToken={c.var.csrfToken}
    />,
  );
});
