// POST /ops/credits/:credit_id/approve (CONTRACT §5): the second pair of eyes on a large credit.
// Another person (another Access `sub`, whatever their email) applies it, once; the requester
// gets 403, and so does `ops-token` (a shared machine token names no person, so it can never be
// the second one).
import { Hono } from "hono";
import { approveCreditAs } from "../../audit/operator-writes.ts";
import { isMachine } from "../../auth/operators.ts";
import * as ledger from "../../ledger/ledger.ts";
import { uuidPattern } from "../../lib/ids.ts";
import { notFound, problem } from "../../web/problem.ts";
import type { AppEnv } from "../app-env.ts";
import { opsOperator } from "../auth/ops-auth.ts";
import { balanceJson } from "../balance.ts";
import { withRequestDb } from "../db.ts";
import { jsonResponse, pathParameter, problemResponse } from "../openapi/build.ts";
import { documented } from "../openapi/describe.ts";
import { opsAuthResponses, opsSecurity } from "../openapi/security.ts";

/** The four-eyes refusals the database gives (the route refuses ops-token before asking it, too). */
const fourEyesRefusals = {
  machine_cannot_approve: "ops-token can request credits but never approve them.",
  same_actor: "The operator who requested this credit cannot approve it: another person must.",
} as const;

export const opsCreditRoutes = new Hono<AppEnv>();

const opsApproveCreditDoc = documented({
  operationId: "opsApproveCredit",
  summary: "Approve a large credit (four eyes)",
  description:
    "Applies a pending credit, once, when approved by a person other than its requester. `ops-token` can request credits but never approve them. Repeating one's own approval answers the balance again with `Idempotent-Replayed: true`.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: [pathParameter("credit_id", "The credit_id of the 202 answer.", { type: "string", format: "uuid" })],
  responses: {
    "200": jsonResponse("Applied; the balance after it.", "Balance", {
      "Idempotent-Replayed": { description: "`true` on a repeated approval.", schema: { type: "string", enum: ["true"] } },
    }),
    ...opsAuthResponses,
    "403": problemResponse("The requester, or `ops-token`, cannot approve."),
    "404": problemResponse("No such credit request."),
    "409": problemResponse("Another person already approved it; nothing was applied again."),
  },
});

opsCreditRoutes.post("/:credit_id/approve", opsApproveCreditDoc, async (c) => {
  const creditId = c.req.param("credit_id");
  const operator = opsOperator(c.var);
  if (!uuidPattern.test(creditId)) return notFound(c, "No such credit request.");
  if (isMachine(operator)) {
    return problem(c, 403, {
      type: "forbidden",
      detail: "A credit is approved by a person signed in through Cloudflare Access, never by ops-token.",
    });
  }
  const { result, found } = await withRequestDb(c, async (db) => {
    const approval = await approveCreditAs(db, creditId, operator);
    const accountId = "account_id" in approval ? approval.account_id : null;
    return { result: approval, found: accountId === null ? null : await ledger.balance(db, accountId) };
  });
  switch (result.outcome) {
    case "not_found":
      return notFound(c, "No such credit request.");
    case "machine_cannot_approve":
    case "same_actor":
      return problem(c, 403, { type: "forbidden", detail: fourEyesRefusals[result.outcome] });
    case "approved_by_another":
      return problem(c, 409, {
        type: "conflict",
        detail: `This credit was already approved by ${result.approved_by}; nothing was applied again.`,
      });
    case "approved":
    case "already_approved":
      if (!found) throw new Error(`account ${result.account_id} missing after an approved credit`);
      return c.json(balanceJson(found), 200, result.outcome === "already_approved" ? { "Idempotent-Replayed": "true" } : {});
  }
});
