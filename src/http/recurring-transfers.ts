// Recurring transfers (CONTRACT §2, "Recurring transfers"): create with Idempotency-Key
// semantics, list, read one, cancel. The recurrence and its occurrences are written by SQL
// functions in one transaction each; the occurrences' own objects are then woken (adopt) so they
// arm their run and announce their events, beside the answer when it is a replay.
import { type Context, Hono } from "hono";
import { configuredOrThrow } from "../config/isolate.ts";
import { uuidPattern } from "../lib/ids.ts";
import { localClockFields, saoPauloClock } from "../lib/sao-paulo-clock.ts";
import { normalisePixKey } from "../pix/key.ts";
import { scheduledRunAtMs, scheduleRefusal } from "../saga/schedule.ts";
import { wakeTransfers } from "../saga-runtime/wake-opened.ts";
import { followUpsOfRefusedFirst } from "../transfers/recurring-follow-ups.ts";
import {
  cancelRecurringTransfer,
  listRecurringTransfersForAccount,
  openRecurringTransfer,
  recurringTransferForAccount,
} from "../transfers/recurring-store.ts";
import { notFound, problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { requestBusinessNowMs } from "./business-now.ts";
import { withRequestDb } from "./db.ts";
import { requestFingerprint } from "./fingerprint.ts";
import { requireIdempotencyKey } from "./idempotency-key.ts";
import { answerPage } from "./list-page.ts";
import {
  idempotencyKeyParameter,
  idempotentReplayedHeader,
  jsonRequestBody,
  jsonResponse,
  pathParameter,
  problemResponse,
  queryParameters,
  retryAfterHeader,
  transferRateText,
} from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { clientAuthResponses, clientSecurity } from "./openapi/security.ts";
import { limitTransferRate } from "./rate-limit.ts";
import { createRecurringTransferBody, listRecurringTransfersQuery } from "./recurring-requests.ts";
import { tooManyScheduled } from "./transfer-schedule.ts";
import { jsonBody, queryParams, validationProblem } from "./validation.ts";

export const recurringTransferRoutes = new Hono<AppEnv>();

const tags = ["recurring transfers"];
const recurringIdParameter = pathParameter("id", "The recurring transfer id.", { type: "string", format: "uuid" });
const forbidden = (c: Context<AppEnv>) => problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." });
const noSuchRecurrence = (c: Context<AppEnv>) => notFound(c, "No such recurring transfer.");

const createDoc = documented({
  operationId: "createRecurringTransfer",
  summary: "Schedule a recurring Pix (Pix Agendado recorrente)",
  description: [
    "Creates the recurrence and its first occurrence, an ordinary scheduled transfer (`scheduled`, nothing held) on `first_date`, and answers `201` with the recurrence. `first_date` follows the rules of `scheduled_for`: a São Paulo date after today, at most 365 days ahead. BR Codes are not accepted here.",
    "Each occurrence runs in the early hours (00:00 to 06:00) of its date under the rules in force that day; its transfer shows `recurring_transfer_id`, and its changes are `transfer.updated` events. The next occurrence opens, `scheduled`, when the one before it runs, so one waits at a time. If an occurrence's hold is refused for insufficient funds, it ends `compensated` and one retry transfer (`retry_transfer_id`) runs the same day between 18:00 and 20:00; the retry's failure is final. Monthly on day 29 to 31: in a shorter month, its last day (the next month comes back to the day). After the last occurrence the recurrence is `finished`.",
    "The first occurrence is a schedule asked for now: requested inside your night window, it meets the night rules then, as a one-off `scheduled_for` does. Above the night cap, or beyond the night total with that window's transfers and schedules, the recurrence is still created but its first occurrence is `compensated` `limit_exceeded` (`nighttime` / `night_total`) and the second waits in its place; allowed, it counts toward that window's total unless canceled. With `DEVICE_RULES` on, every occurrence and evening retry carries the device of this request and meets the new-device cap at its run, by that device as registered then (`new_device` / `new_device_daily`), as a one-off schedule from it would.",
    "Each waiting occurrence counts toward `MAX_PENDING_SCHEDULED` (default 100) per account: past it, `422` `/too-many-scheduled`, nothing written.",
    "**Idempotency** as for `POST /v1/transfers`: the same `Idempotency-Key` with the same request returns the first response with `Idempotent-Replayed: true`; with a different request, `422`; concurrent requests create one recurrence.",
    `**Rate limit**: ${transferRateText}, a budget of its own; past it, \`429\` with \`Retry-After\`.`,
  ].join("\n\n"),
  tags,
  security: clientSecurity,
  parameters: [idempotencyKeyParameter],
  requestBody: jsonRequestBody("CreateRecurringTransferRequest"),
  responses: {
    "201": jsonResponse("The recurrence (or the replay of the first response).", "RecurringTransfer", idempotentReplayedHeader),
    "400": problemResponse(
      "Missing or invalid `Idempotency-Key`, malformed JSON, or invalid fields (a BR Code among them). Nothing was written.",
    ),
    ...clientAuthResponses,
    "413": problemResponse("The body is over 16 KiB."),
    "422": problemResponse(
      "This `Idempotency-Key` was used with a different request (`/idempotency-key-reused`), or the account already has `MAX_PENDING_SCHEDULED` scheduled transfers waiting (`/too-many-scheduled`). Nothing was written.",
    ),
    "429": problemResponse("Too many requests for this account (`type` ends in `/rate-limited`).", retryAfterHeader),
    "503": problemResponse("The database could not answer: retry after `Retry-After` with the same `Idempotency-Key`.", retryAfterHeader),
  },
});

recurringTransferRoutes.post("/", createDoc, limitTransferRate("recurring"), jsonBody(createRecurringTransferBody), async (c) => {
  const accountId = c.get("accountId");
  const idempotencyKey = requireIdempotencyKey(c);
  const body = c.req.valid("json");
  const config = configuredOrThrow(c.env);
  const amountMaxCents = config.rules.per_transfer_cents;
  if (body.amount_cents > amountMaxCents)
    return validationProblem(c, [{ field: "amount_cents", message: `must be at most ${amountMaxCents}` }]);
  // Business time decides the first date's day and the night rules a request at night meets.
  const nowMs = await requestBusinessNowMs(c, config);
  const refusal = scheduleRefusal(body.first_date, saoPauloClock(nowMs).day);
  if (refusal !== null) return validationProblem(c, [{ field: "first_date", message: refusal }]);
  const key = normalisePixKey(body.pix_key_type, body.pix_key);
  if (!key.ok) return validationProblem(c, [{ field: "pix_key", message: key.message }]);
  const description = body.description ?? null;
  const fingerprint = await requestFingerprint([
    "recurring",
    body.amount_cents,
    key.key,
    body.pix_key_type,
    description,
    body.first_date,
    body.frequency,
    body.count,
  ]);
  const firstId = crypto.randomUUID();
  const result = await withRequestDb(c, (db) =>
    openRecurringTransfer(db, {
      id: crypto.randomUUID(),
      accountId,
      amountCents: body.amount_cents,
      pixKey: key.key,
      pixKeyType: body.pix_key_type,
      description,
      idempotencyKey,
      requestFingerprint: fingerprint,
      frequency: body.frequency,
      firstDate: body.first_date,
      count: body.count,
      rules: config.rules,
      deadlineMs: config.sagaTimings.deadlineMs,
      first: { id: firstId, run_at_ms: scheduledRunAtMs(body.first_date, firstId, "early") },
      followUps: followUpsOfRefusedFirst(
        { firstDate: body.first_date, frequency: body.frequency, count: body.count },
        config.sagaTimings.deadlineMs,
      ),
      ...localClockFields(nowMs),
      // With the rules off the token's device is not the recurrence's concern (CONTRACT §2 "Devices").
      deviceId: config.rules.device_rules ? c.get("deviceId") : null,
    }),
  );
  switch (result.outcome) {
    case "created":
      // Awaited, so the first occurrence's object is armed when the client hears of it; a lost
      // wake is found by the sweeper once the occurrence is due.
      await wakeTransfers(c.env, result.waiting);
      return c.json(result.response, 201);
    case "replayed":
      // The first answer may have been lost with the wake: arm again, beside the answer.
      c.executionCtx.waitUntil(wakeTransfers(c.env, result.waiting));
      return c.json(result.response, 201, { "Idempotent-Replayed": "true" });
    case "key_reused":
      return problem(c, 422, { type: "idempotency-key-reused", detail: "This Idempotency-Key was used with a different request body." });
    case "account_not_found":
      return forbidden(c);
    case "too_many_scheduled":
      return tooManyScheduled(c, config.rules.pending_scheduled_max);
  }
});

const listDoc = documented({
  operationId: "listRecurringTransfers",
  summary: "List your recurring transfers",
  description: "Your recurring transfers, newest first, one page at a time: follow `next_cursor` until it is null.",
  tags,
  security: clientSecurity,
  parameters: queryParameters(listRecurringTransfersQuery, {
    limit: "Page size, 1 to 100.",
    cursor: "`next_cursor` of the previous page; omit for the first page.",
  }),
  responses: {
    "200": jsonResponse("One page of recurring transfers.", "RecurringTransferPage"),
    "400": problemResponse("`limit` out of range, an unknown query parameter, or a cursor this API did not give."),
    ...clientAuthResponses,
  },
});

recurringTransferRoutes.get("/", listDoc, queryParams(listRecurringTransfersQuery), (c) => {
  const { limit, cursor } = c.req.valid("query");
  // Its own scope: a cursor of the transfers' list is not one of this list's.
  return answerPage(c, "recurring-transfers", cursor, (db, position) =>
    listRecurringTransfersForAccount(db, c.get("accountId"), limit, position),
  );
});

const getDoc = documented({
  operationId: "getRecurringTransfer",
  summary: "Get one of your recurring transfers",
  description: "The recurrence with its occurrences so far. Another account's is indistinguishable from none: `404`.",
  tags,
  security: clientSecurity,
  parameters: [recurringIdParameter],
  responses: {
    "200": jsonResponse("The recurring transfer.", "RecurringTransfer"),
    ...clientAuthResponses,
    "404": problemResponse("No recurring transfer of yours with this id."),
  },
});

/** A malformed id names none; the nil UUID still lets an unknown account get its 403. */
const lookupIdOf = (id: string) => (uuidPattern.test(id) ? id : "00000000-0000-0000-0000-000000000000");

recurringTransferRoutes.get("/:id", getDoc, async (c) => {
  const read = await withRequestDb(c, (db) => recurringTransferForAccount(db, lookupIdOf(c.req.param("id")), c.get("accountId")));
  if (read.outcome === "account_not_found") return forbidden(c);
  if (read.outcome === "not_found") return noSuchRecurrence(c);
  return c.json(read.recurringTransfer);
});

const cancelDoc = documented({
  operationId: "cancelRecurringTransfer",
  summary: "Cancel one of your recurring transfers",
  description:
    "Ends an `active` recurrence in `canceled`: its waiting occurrence (and an evening retry still waiting) is `canceled` in the same step, and nothing more runs. Occurrences that already ran are untouched. A recurrence `finished` or `canceled` is `409`.",
  tags,
  security: clientSecurity,
  parameters: [recurringIdParameter],
  responses: {
    "200": jsonResponse("The recurrence, now `canceled`.", "RecurringTransfer"),
    ...clientAuthResponses,
    "404": problemResponse("No recurring transfer of yours with this id."),
    "409": problemResponse("The recurrence is not `active` (finished, or canceled already): nothing was changed."),
    "503": problemResponse(
      "The cancel could not be confirmed: retry after `Retry-After`; a repeat answers `409` once it was canceled.",
      retryAfterHeader,
    ),
  },
});

recurringTransferRoutes.post("/:id/cancel", cancelDoc, async (c) => {
  const accountId = c.get("accountId");
  const id = lookupIdOf(c.req.param("id"));
  const account = await withRequestDb(c, (db) => recurringTransferForAccount(db, id, accountId));
  if (account.outcome === "account_not_found") return forbidden(c);
  if (account.outcome === "not_found") return noSuchRecurrence(c);
  const result = await withRequestDb(c, (db) => cancelRecurringTransfer(db, id, accountId));
  switch (result.outcome) {
    case "canceled":
      // Their objects announce the cancel and drop the alarm; the database already refuses the run.
      await wakeTransfers(c.env, result.canceled);
      return c.json(result.response, 200);
    case "not_active":
      return problem(c, 409, {
        type: "conflict",
        detail: `Only an active recurring transfer can be canceled; this one is ${result.state}.`,
      });
    case "not_found":
      return noSuchRecurrence(c);
  }
});
