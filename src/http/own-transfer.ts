// The caller's own transfer, for the routes under /v1/transfers/:id: another account's transfer
// is indistinguishable from none (404), and an unknown account gets its 403 whatever the id.
import type { Context } from "hono";
import { uuidPattern as transferIdPattern } from "../lib/ids.ts";
import { transferForAccount } from "../transfers/reads.ts";
import type { TransferResource } from "../transfers/store.ts";
import { notFound, problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { withRequestDb } from "./db.ts";

export type OwnTransfer = { found: true; transfer: TransferResource } | { found: false; answer: Response };

export const noSuchTransfer = (c: Context<AppEnv>): Response => notFound(c, "No such transfer.");

export async function ownTransfer(c: Context<AppEnv>, id: string): Promise<OwnTransfer> {
  // A malformed id names no transfer, but an unknown account must still get its 403: look it up
  // with the nil UUID, which no transfer has (ids are random v4 UUIDs).
  const lookupId = transferIdPattern.test(id) ? id : "00000000-0000-0000-0000-000000000000";
  const found = await withRequestDb(c, (db) => transferForAccount(db, lookupId, c.get("accountId")));
  if (found.outcome === "account_not_found")
    return { found: false, answer: problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." }) };
  if (found.outcome === "not_found") return { found: false, answer: noSuchTransfer(c) };
  return { found: true, transfer: found.transfer };
}
