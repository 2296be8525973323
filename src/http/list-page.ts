// One page of a client list (CONTRACT §2): newest first, `limit` and a sealed `cursor`. A cursor
// is opened under the list's own scope (its name and the account), so one list's cursor, or
// another account's, is not one this list issued: 400, as is an altered one.
import type { Context } from "hono";
import type { Queryable } from "../db/queryable.ts";
import { openCursor, sealCursor } from "../lib/cursor-seal.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { withRequestDb } from "./db.ts";
import { validationProblem } from "./validation.ts";

export type ListRead<T> =
  | { outcome: "page"; data: T[]; nextPosition: string | null }
  | { outcome: "account_not_found" }
  | { outcome: "bad_cursor" };

export async function answerPage<T>(
  c: Context<AppEnv>,
  list: string,
  cursor: string | undefined,
  read: (db: Queryable, position: string | null) => Promise<ListRead<T>>,
): Promise<Response> {
  const scope = `${list}:${c.get("accountId")}`;
  const position = cursor === undefined ? null : await openCursor(c.env, scope, cursor);
  const notIssued = () => validationProblem(c, [{ field: "cursor", message: "not a cursor from this API" }]);
  if (cursor !== undefined && position === null) return notIssued();
  const page = await withRequestDb(c, (db) => read(db, position));
  if (page.outcome === "account_not_found")
    return problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." });
  if (page.outcome === "bad_cursor") return notIssued();
  const nextCursor = page.nextPosition === null ? null : await sealCursor(c.env, scope, page.nextPosition);
  return c.json({ data: page.data, next_cursor: nextCursor });
}
