// Operator account routes (CONTRACT §5): create an account, credit it (four eyes above
// OPS_CREDIT_APPROVAL_ABOVE_CENTS, alone or with the operator's credits to the account in the
// last 24 h: the credit waits for POST /ops/credits/:credit_id/approve).
import { Hono } from "hono";
import { z } from "zod";
import { createAccountAs, creditAs } from "../../audit/operator-writes.ts";
import { isMachine } from "../../auth/operators.ts";
import { configuredOrThrow } from "../../config/isolate.ts";
import * as ledger from "../../ledger/ledger.ts";
import { accountIdPattern } from "../../lib/ids.ts";
import { notFound, problem } from "../../web/problem.ts";
import type { AppEnv } from "../app-env.ts";
import { opsOperator } from "../auth/ops-auth.ts";
import { balanceJson } from "../balance.ts";
import { withRequestDb } from "../db.ts";
import { accountIdParameter, invalidAccountIdResponse, jsonRequestBody, jsonResponse, problemResponse } from "../openapi/build.ts";
import { documented } from "../openapi/describe.ts";
import { opsAuthResponses, opsSecurity } from "../openapi/security.ts";
import { jsonBody, validationProblem } from "../validation.ts";

export const creditKeyLengthMax = 255;

export const creditBody = z.strictObject({
  amount_cents: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  idempotency_key: z.string().min(1).max(creditKeyLengthMax),
});

export const opsAccountRoutes = new Hono<AppEnv>();

const opsCreateAccountDoc = documented({
  operationId: "opsCreateAccount",
  summary: "Create an account",
  description: "Creates the customer account with a zero balance; idempotent.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: [accountIdParameter],
  responses: {
    "201": jsonResponse("Created; its balance.", "Balance"),
    "200": jsonResponse("It already existed; its balance.", "Balance"),
    "400": invalidAccountIdResponse,
    ...opsAuthResponses,
  },
});

opsAccountRoutes.put("/:id", opsCreateAccountDoc, async (c) => {
  const accountId = c.req.param("id");
  if (!accountIdPattern.test(accountId)) return validationProblem(c, [{ field: "id", message: "1 to 64 of [A-Za-z0-9_-]" }]);
  const { created, found } = await withRequestDb(c, async (db) => ({
    created: await createAccountAs(db, accountId, c.get("actor")),
    found: await ledger.balance(db, accountId),
  }));
  if (!found) throw new Error(`account ${accountId} missing right after creation`);
  return c.json(balanceJson(found), created === "created" ? 201 : 200);
});

const opsCreditAccountDoc = documented({
  operationId: "opsCreditAccount",
  summary: "Credit an account",
  description:
    "A balanced ledger credit against the funding account. Repeating `idempotency_key` credits once and answers `200` with the balance and `Idempotent-Replayed: true`; the same key with another amount is `422`. Above `OPS_CREDIT_APPROVAL_ABOVE_CENTS` (default 1000000), or above it with the same operator's credits to the account in the last 24 hours, nothing is applied: `202 pending_approval`, until another person approves it. `ops-token` credits at most the threshold (`403` above it).",
  tags: ["operators"],
  security: opsSecurity,
  parameters: [accountIdParameter],
  requestBody: jsonRequestBody("CreditRequest"),
  responses: {
    "200": jsonResponse("The balance after the credit (or after the first credit with this key).", "Balance", {
      "Idempotent-Replayed": { description: "`true` on a repeated key.", schema: { type: "string", enum: ["true"] } },
    }),
    "202": jsonResponse("Above the approval threshold: recorded, waiting for a second person.", "CreditPending"),
    "400": invalidAccountIdResponse,
    ...opsAuthResponses,
    "403": problemResponse("`ops-token` asked for more than the approval threshold: a person requests it."),
    "404": problemResponse("No such account."),
    "413": problemResponse("The body is over 16 KiB."),
    "422": problemResponse("This `idempotency_key` already belongs to another credit (`type` ends in `/idempotency-key-reused`)."),
  },
});

opsAccountRoutes.post("/:id/credits", opsCreditAccountDoc, jsonBody(creditBody), async (c) => {
  const accountId = c.req.param("id");
  if (!accountIdPattern.test(accountId)) return validationProblem(c, [{ field: "id", message: "1 to 64 of [A-Za-z0-9_-]" }]);
  const body = c.req.valid("json");
  const operator = opsOperator(c.var);
  const approvalAboveCents = configuredOrThrow(c.env).creditApprovalAboveCents;
  // A credit too large for one person needs two, and ops-token names none: a person asks.
  if (isMachine(operator) && body.amount_cents > approvalAboveCents) {
    return problem(c, 403, {
      type: "forbidden",
      detail: `ops-token credits at most ${approvalAboveCents} cents; a larger credit is requested by a person signed in through Cloudflare Access.`,
    });
  }
  const { result, found } = await withRequestDb(c, async (db) => {
    const credited = await creditAs(db, {
      accountId,
      idempotencyKey: body.idempotency_key,
      amountCents: body.amount_cents,
      operator,
      approvalAboveCents,
    });
    return { result: credited, found: await ledger.balance(db, accountId) };
  });
  switch (result.outcome) {
    case "account_not_found":
      return notFound(c, "No such account.");
    case "exists_with_different_fields":
      return problem(c, 422, { type: "idempotency-key-reused", detail: "This idempotency_key already belongs to another credit." });
    case "requested":
    case "already_requested":
      return c.json(
        { status: "pending_approval", credit_id: result.credit_id },
        202,
        result.outcome === "already_requested" ? { "Idempotent-Replayed": "true" } : {},
      );
    case "already_credited":
    case "credited":
      if (!found) throw new Error(`account ${accountId} missing after a credit`);
      return c.json(balanceJson(found), 200, result.outcome === "already_credited" ? { "Idempotent-Replayed": "true" } : {});
  }
});
