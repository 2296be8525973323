// GET /v1/balance (CONTRACT §2).
import { Hono } from "hono";
import type { BalanceBody } from "../contract/schemas.ts";
import { balance } from "../ledger/ledger.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { withRequestDb } from "./db.ts";

export const balanceRoutes = new Hono<AppEnv>();

balanceRoutes.get("/", async (c) => {
  const found = await withRequestDb(c, (db) => balance(db, c.get("accountId")));
  if (!found) return problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." });
  return c.json(balanceJson(found));
});

export function balanceJson(b: { accountId: string; balanceCents: number; heldCents: number; availableCents: number }): BalanceBody {
  return { account_id: b.accountId, balance_cents: b.balanceCents, held_cents: b.heldCents, available_cents: b.availableCents };
}
