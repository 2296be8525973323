// GET /v1/balance (CONTRACT §2).
import { Hono } from "hono";
import type { BalanceBody } from "../contract/schemas.ts";
import { balance } from "../ledger/ledger.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { withRequestDb } from "./db.ts";
import { jsonResponse } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { clientAuthResponses, clientSecurity } from "./openapi/security.ts";

export const balanceRoutes = new Hono<AppEnv>();

const getBalanceDoc = documented({
  operationId: "getBalance",
  summary: "Your balance",
  description: "`available_cents` is what a new transfer can use: the balance less what transfers in flight hold.",
  tags: ["accounts"],
  security: clientSecurity,
  responses: { "200": jsonResponse("The balance.", "Balance"), ...clientAuthResponses },
});

balanceRoutes.get("/", getBalanceDoc, async (c) => {
  const found = await withRequestDb(c, (db) => balance(db, c.get("accountId")));
  if (!found) return problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." });
  return c.json(balanceJson(found));
});

export function balanceJson(b: { accountId: string; balanceCents: number; heldCents: number; availableCents: number }): BalanceBody {
  return { account_id: b.accountId, balance_cents: b.balanceCents, held_cents: b.heldCents, available_cents: b.availableCents };
}
