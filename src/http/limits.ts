// GET /v1/limits (CONTRACT §2) and PUT /ops/accounts/:id/limits (CONTRACT §5): a decrease is in
// force at once, an increase 24 h later (the answer's `pending` says when).
import { Hono } from "hono";
import { z } from "zod";
import { configuredOrThrow } from "../config/isolate.ts";
import { accountIdPattern } from "../lib/ids.ts";
import { type AccountLimitsInput, limitsFor, setLimits } from "../limits/store.ts";
import { notFound, problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { requestBusinessNowMs } from "./business-now.ts";
import { withRequestDb } from "./db.ts";
import { accountIdParameter, invalidAccountIdResponse, jsonRequestBody, jsonResponse, problemResponse } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import {
  businessTimeUnreadableResponse,
  clientAuthReadingBusinessTime,
  clientSecurity,
  opsAuthResponses,
  opsSecurity,
} from "./openapi/security.ts";
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

const getLimitsDoc = documented({
  operationId: "getLimits",
  summary: "Your Pix limits",
  description:
    "Your limits (per transfer, daily, at night per transfer and per night window, with the window) and what is left of today's (São Paulo day) and of tonight's, plus increases not yet in force (`pending`). A transfer over a limit is answered `202` and ends `compensated` with `failure_reason: limit_exceeded` and the rule in `failure_code`.",
  tags: ["accounts"],
  security: clientSecurity,
  responses: {
    "200": jsonResponse("The limits.", "ClientLimits"),
    ...clientAuthReadingBusinessTime,
  },
});

limitRoutes.get("/", getLimitsDoc, async (c) => {
  const config = configuredOrThrow(c.env);
  // What is left of today and tonight is counted in business time (src/clock/business-time.ts).
  const nowMs = await requestBusinessNowMs(c, config);
  const limits = await withRequestDb(c, (db) => limitsFor(db, c.get("accountId"), nowMs, config.rules));
  if (!limits) return problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." });
  // The anti-fraud thresholds are for operators (clientLimitsSchema says why).
  const { velocity_max_per_10_min: _velocity, new_key_review_above_cents: _newKey, ...clientLimits } = limits;
  return c.json(clientLimits);
});

export const opsLimitRoutes = new Hono<AppEnv>();

const opsSetLimitsDoc = documented({
  operationId: "opsSetLimits",
  summary: "Set an account's limits",
  description:
    "Replaces the account's limits: each field is optional, and an absent one means the default. Each limit is compared with the one in force: a decrease applies at once (and drops a waiting increase of that limit), an increase 24 h later, listed in the answer's `pending` with its `effective_at`. A later `night_starts_at` shortens the night window, so it counts as an increase.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: [accountIdParameter],
  requestBody: jsonRequestBody("SetLimitsRequest"),
  responses: {
    "200": jsonResponse("The account's limits in force now, and the increases waiting (`pending`).", "Limits"),
    "400": invalidAccountIdResponse,
    ...opsAuthResponses,
    "404": problemResponse("No such account."),
    "413": problemResponse("The body is over 16 KiB."),
    "503": businessTimeUnreadableResponse,
  },
});

opsLimitRoutes.put("/:id/limits", opsSetLimitsDoc, jsonBody(setLimitsBody), async (c) => {
  const accountId = c.req.param("id");
  if (!accountIdPattern.test(accountId)) return validationProblem(c, [{ field: "id", message: "1 to 64 of [A-Za-z0-9_-]" }]);
  const body = c.req.valid("json");
  const config = configuredOrThrow(c.env);
  // An increase waits 24 h of business time, judged against the limits in force then.
  const nowMs = await requestBusinessNowMs(c, config);
  const limits = await withRequestDb(c, (db) => setLimits(db, accountId, limitsInputOf(body), nowMs, config.rules, c.get("actor")));
  if (!limits) return notFound(c, "No such account.");
  return c.json(limits);
});
