// GET /v1/limits (CONTRACT §2) and PUT /ops/accounts/:id/limits (CONTRACT §5): a decrease is in
// force at once, an increase 24 h later (the answer's `pending` says when).
import { Hono } from "hono";
import { z } from "zod";
import { configuredOrThrow } from "../config/isolate.ts";
import { accountIdPattern } from "../lib/ids.ts";
import { type AccountLimitsInput, limitsFor, setLimits } from "../limits/store.ts";
import { notFound, problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { withRequestDb } from "./db.ts";
import { jsonBody, validationProblem } from "./validation.ts";

const centsField = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const setLimitsBody = z.strictObject({
  per_transfer_cents: centsField.optional(),
  daily_cents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  night_per_transfer_cents: centsField.optional(),
  /** The cap on the sum of one night window's transfers; 0 allows nothing at night. */
  night_total_cents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /** Pix lets the customer move the start of the night window (São Paulo time). */
  night_starts_at: z
    .string()
    .regex(/^(1[89]|2[0-3]):[0-5]\d$/, "HH:MM from 18:00 to 23:59")
    .optional(),
});

/** An absent field means the default. */
export function limitsInputOf(body: z.infer<typeof setLimitsBody>): AccountLimitsInput {
  return {
    perTransferCents: body.per_transfer_cents ?? null,
    dailyCents: body.daily_cents ?? null,
    nightPerTransferCents: body.night_per_transfer_cents ?? null,
    nightTotalCents: body.night_total_cents ?? null,
    nightStartsAt: body.night_starts_at ?? null,
  };
}

export const limitRoutes = new Hono<AppEnv>();

limitRoutes.get("/", async (c) => {
  const limits = await withRequestDb(c, (db) => limitsFor(db, c.get("accountId"), Date.now(), configuredOrThrow(c.env).rules));
  if (!limits) return problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." });
  return c.json(limits);
});

export const opsLimitRoutes = new Hono<AppEnv>();

opsLimitRoutes.put("/:id/limits", jsonBody(setLimitsBody), async (c) => {
  const accountId = c.req.param("id");
  if (!accountIdPattern.test(accountId)) return validationProblem(c, [{ field: "id", message: "1 to 64 of [A-Za-z0-9_-]" }]);
  const body = c.req.valid("json");
  const limits = await withRequestDb(c, (db) =>
    setLimits(db, accountId, limitsInputOf(body), Date.now(), configuredOrThrow(c.env).rules, c.get("actor")),
  );
  if (!limits) return notFound(c, "No such account.");
  return c.json(limits);
});
