// Client transfers (CONTRACT §2): create with Idempotency-Key semantics, read one, list, cancel a
// scheduled one; the live stream of one is transfer-stream.ts.
import { type Context, Hono } from "hono";
import { configuredOrThrow } from "../config/isolate.ts";
import { log } from "../lib/log.ts";
import { localClockFields } from "../lib/sao-paulo-clock.ts";
import type { StartResult } from "../saga-runtime/rpc-results.ts";
import { listTransfersForAccount } from "../transfers/reads.ts";
import { callObject } from "../web/object-call.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { requestBusinessNowMs } from "./business-now.ts";
import { requestFingerprint } from "./fingerprint.ts";
import { requireIdempotencyKey } from "./idempotency-key.ts";
import { answerPage } from "./list-page.ts";
import {
  idempotencyKeyParameter,
  idempotentReplayedHeader,
  jsonRequestBody,
  jsonResponse,
  problemResponse,
  queryParameters,
  retryAfterHeader,
  transferIdParameter,
  transferRateText,
} from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { clientAuthResponses, clientSecurity } from "./openapi/security.ts";
import { ownTransfer } from "./own-transfer.ts";
import { limitTransferRate } from "./rate-limit.ts";
import { payeeOf } from "./transfer-payee.ts";
import { createTransferBody, listTransfersQuery } from "./transfer-requests.ts";
import { cancelTransfer, readSchedule, tooManyScheduled } from "./transfer-schedule.ts";
import { transferStreamRoutes } from "./transfer-stream.ts";
import { jsonBody, queryParams, validationProblem } from "./validation.ts";

export const transferRoutes = new Hono<AppEnv>();

const createTransferDoc = documented({
  operationId: "createTransfer",
  summary: "Send a Pix",
  description: [
    "Creates the transfer and attempts the hold on your balance, then answers `202` with the transfer: already `funds_reserved` or later, or `compensated` with `failure_reason: insufficient_funds` (or `limit_exceeded`). The saga carries on in the background; poll `GET /v1/transfers/{id}`.",
    "**Scheduled** (`scheduled_for`, a São Paulo date after today, at most 365 days ahead): answers `202` in `scheduled` with nothing held and no rule checked, except that a schedule asked for inside your night window meets the night rules then (above the night cap, or beyond the night total with that window's transfers and other such schedules: `202` `compensated` `limit_exceeded`, `nighttime` or `night_total`) and counts toward that window's total unless canceled; a schedule to an active trusted recipient is exempt. It runs in the early hours (00:00 to 06:00) of that day, checked against the daytime limits; if too little is available then, once more between 18:00 and 21:00, then it ends `compensated` with `insufficient_funds`. Until it runs, `POST /v1/transfers/{id}/cancel` cancels it. An account has at most `MAX_PENDING_SCHEDULED` (default 100) transfers waiting, recurring occurrences included: past that, `422` `/too-many-scheduled`.",
    "Pix keys are validated and stored normalised: CPF and CNPJ without punctuation (both accepted), email and EVP lowercased, phone in E.164. Unknown fields are rejected (400).",
    "**Pix Copia e Cola**: instead of `pix_key` and `pix_key_type`, send `br_code`. A static code names the key (its type inferred) and may carry the amount: omit `amount_cents` or give the same; a code without one needs `amount_cents`. A dynamic code (a payload URL) is resolved by the provider first and paid as the code, for the amount it resolved to; it is resolved again before every send, and a charge changed since (amount, key, no longer payable) is not sent: `compensated`, `not_sent`, `failure_code` `br_code_changed`. A dynamic code cannot be scheduled (`400` `/invalid-br-code`). A malformed code or a wrong CRC is `400` `/invalid-br-code` (`errors` name the EMV field); a dynamic code the provider refuses (expired, paid) is `422` `/br-code-unresolvable`; a provider that cannot answer now, `503` with `Retry-After`. None of them writes anything. See also `POST /v1/br-codes/preview`.",
    "**Idempotency**: the same `Idempotency-Key` with the same request returns the first response (same status, byte-identical body) with `Idempotent-Replayed: true`. Requests are compared after normalisation, so a CPF with or without punctuation is the same request. The same key with a different request is `422`. Concurrent requests with one key create one transfer: the later ones wait for the first and get its replay. Keys are scoped to your account.",
    `**Rate limit**: ${transferRateText}; every attempt counts, replays and rejected ones included. Past it: \`429\` with \`Retry-After\`.`,
  ].join("\n\n"),
  tags: ["transfers"],
  security: clientSecurity,
  parameters: [idempotencyKeyParameter],
  requestBody: jsonRequestBody("CreateTransferRequest"),
  responses: {
    "202": jsonResponse(
      "The transfer, once the hold was attempted (or the replay of the first response).",
      "Transfer",
      idempotentReplayedHeader,
    ),
    "400": problemResponse("Missing or invalid `Idempotency-Key`, malformed JSON, or invalid fields (see `errors`). Nothing was written."),
    ...clientAuthResponses,
    "413": problemResponse("The body is over 16 KiB."),
    "422": problemResponse(
      "This `Idempotency-Key` was used with a different request (`type` ends in `/idempotency-key-reused`), the provider refused a dynamic BR Code (`/br-code-unresolvable`), or a schedule would be more than `MAX_PENDING_SCHEDULED` waiting for this account (`/too-many-scheduled`). Nothing was written.",
    ),
    "429": problemResponse("Too many transfer requests for this account (`type` ends in `/rate-limited`).", retryAfterHeader),
    "503": problemResponse(
      "The transfer could not be confirmed (or the token's signing keys cannot be fetched): retry after `Retry-After` with the same `Idempotency-Key`, which tells whether it was created.",
      retryAfterHeader,
    ),
  },
});

transferRoutes.post("/", createTransferDoc, limitTransferRate(), jsonBody(createTransferBody), async (c) => {
  const accountId = c.get("accountId");
  const idempotencyKey = requireIdempotencyKey(c);
  const body = c.req.valid("json");
  const config = configuredOrThrow(c.env);
  const amountMaxCents = config.rules.per_transfer_cents;
  // Before a dynamic code is resolved: a request refused anyway costs no provider call.
  if (body.amount_cents !== undefined && body.amount_cents > amountMaxCents) {
    return validationProblem(c, [{ field: "amount_cents", message: `must be at most ${amountMaxCents}` }]);
  }
  const description = body.description ?? null;
  // A fresh id names the saga object (and spreads a scheduled run's slot); a replay finds the
  // first transfer instead. A bad date is refused before a dynamic code costs a provider call.
  const candidateId = crypto.randomUUID();
  // Business time decides the São Paulo day, the night window and pending increases; the saga's
  // own deadline stays on the wall clock. A schedule's day is judged here, so scheduling reads
  // it (sandbox only); otherwise the wall clock goes, and with the sandbox on transfer_open adds
  // the test clock's offset in its own statement: no round trip more (docs/clock.md).
  const scheduling = body.scheduled_for !== undefined && body.scheduled_for !== null;
  const nowMs = scheduling ? await requestBusinessNowMs(c, config) : Date.now();
  const scheduled = readSchedule(body.scheduled_for ?? null, candidateId, nowMs);
  if (!scheduled.ok) return validationProblem(c, [{ field: "scheduled_for", message: scheduled.message }]);
  const found = await payeeOf(c, body, description, idempotencyKey, scheduled.schedule !== null);
  if (!found.ok) return found.response;
  const { payee } = found;
  if (payee.amountCents > amountMaxCents) {
    return validationProblem(c, [
      { field: "amount_cents", message: `the BR Code's amount, ${payee.amountCents}, is over ${amountMaxCents}` },
    ]);
  }

  // The date is fingerprinted only when given, so an unscheduled request keeps its fingerprint.
  const fingerprint = scheduled.schedule
    ? await requestFingerprint([payee.requestFingerprint, { scheduled_for: scheduled.schedule.scheduledFor }])
    : payee.requestFingerprint;

  const input = {
    id: candidateId,
    accountId,
    amountCents: payee.amountCents,
    pixKey: payee.pixKey,
    pixKeyType: payee.pixKeyType,
    description,
    idempotencyKey,
    requestFingerprint: fingerprint,
    deadlineMs: config.sagaTimings.deadlineMs,
    ...localClockFields(nowMs),
    rules: config.rules,
    brCode: payee.brCode,
    schedule: scheduled.schedule,
    testClock: config.sandboxEnabled && !scheduling,
    // With the rules off the token's device is not the transfer's concern (CONTRACT §2 "Devices").
    deviceId: config.rules.device_rules ? c.get("deviceId") : null,
  };
  const result = await callObject<StartResult>(c, "start", () => c.env.TRANSFER_SAGA.getByName(candidateId).start(input));
  switch (result.outcome) {
    case "created":
      return c.body(result.responseBody, 202, { "content-type": "application/json" });
    case "replayed": {
      // A client repeats a key when its first answer was lost, and that answer may have been
      // lost with the first object, after the commit and before its alarm: make sure the
      // transfer's own object is armed. Beside the answer, never in its way.
      c.executionCtx.waitUntil(armAfterReplay(c, result.transferId));
      // The Worker's own retry of an interrupted start finds its candidate committed by the
      // first try: that is this request's first answer, not a replay.
      const ownFirstTry = result.transferId === candidateId;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (!ownFirstTry) headers["Idempotent-Replayed"] = "true";
      return c.body(result.responseBody, 202, headers);
    }
    case "key_reused":
      return problem(c, 422, { type: "idempotency-key-reused", detail: "This Idempotency-Key was used with a different request body." });
    case "account_not_found":
      return problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." });
    case "too_many_scheduled":
      return tooManyScheduled(c, config.rules.pending_scheduled_max);
    case "unavailable":
      // Nothing is known to be lost: the transfer either did not open or opened and will be
      // replayed; a retry with the same Idempotency-Key tells which.
      return problem(c, 503, {
        type: "unavailable",
        detail: "The transfer could not be confirmed; retry with the same Idempotency-Key.",
        headers: { "Retry-After": "1" },
      });
  }
});

/** A fault is logged and nothing more: the sweeper still finds an unarmed transfer when overdue. */
async function armAfterReplay(c: Context<AppEnv>, transferId: string): Promise<void> {
  try {
    const armed = await c.env.TRANSFER_SAGA.getByName(transferId).ensureArmed();
    if (armed.outcome !== "already_armed") log(c, "replay_arm", { transfer_id: transferId, outcome: armed.outcome });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(c, "replay_arm", { transfer_id: transferId, outcome: "failed", error: message }, "warn");
  }
}

const listTransfersDoc = documented({
  operationId: "listTransfers",
  summary: "List your transfers",
  description: "Your transfers, newest first, one page at a time: follow `next_cursor` until it is null.",
  tags: ["transfers"],
  security: clientSecurity,
  parameters: queryParameters(listTransfersQuery, {
    limit: "Page size, 1 to 100.",
    cursor: "`next_cursor` of the previous page; omit for the first page.",
  }),
  responses: {
    "200": jsonResponse("One page of transfers.", "TransferPage"),
    "400": problemResponse("`limit` out of range, an unknown query parameter, or a cursor this API did not give."),
    ...clientAuthResponses,
  },
});

transferRoutes.get("/", listTransfersDoc, queryParams(listTransfersQuery), (c) => {
  const { limit, cursor } = c.req.valid("query");
  // One account's cursor is no other's: the scope names the account.
  return answerPage(c, "transfers", cursor, (db, position) => listTransfersForAccount(db, c.get("accountId"), limit, position));
});

const getTransferDoc = documented({
  operationId: "getTransfer",
  summary: "Get one of your transfers",
  description: "The transfer with its whole history. Another account's transfer is indistinguishable from none: `404`.",
  tags: ["transfers"],
  security: clientSecurity,
  parameters: [transferIdParameter],
  responses: {
    "200": jsonResponse("The transfer.", "Transfer"),
    ...clientAuthResponses,
    "404": problemResponse("No transfer of yours with this id."),
  },
});

transferRoutes.get("/:id", getTransferDoc, async (c) => {
  const own = await ownTransfer(c, c.req.param("id"));
  return own.found ? c.json(own.transfer) : own.answer;
});

const cancelTransferDoc = documented({
  operationId: "cancelTransfer",
  summary: "Cancel one of your scheduled transfers",
  description:
    "Ends a transfer still `scheduled` (created with `scheduled_for`, its day not yet come) in `canceled`: nothing was held, so nothing moves. Any other state, `canceled` included, is `409`: once its day came the saga runs like every other transfer.",
  tags: ["transfers"],
  security: clientSecurity,
  parameters: [transferIdParameter],
  responses: {
    "200": jsonResponse("The transfer, now `canceled`.", "Transfer"),
    ...clientAuthResponses,
    "404": problemResponse("No transfer of yours with this id."),
    "409": problemResponse("The transfer is not `scheduled` (it ran, or was canceled already): nothing was changed."),
    "503": problemResponse(
      "The cancel could not be confirmed (or the token's signing keys cannot be fetched): retry after `Retry-After`; a repeat answers `409` once it was canceled.",
      retryAfterHeader,
    ),
  },
});

transferRoutes.post("/:id/cancel", cancelTransferDoc, cancelTransfer);

// The live stream of one transfer (transfer-stream.ts).
transferRoutes.route("/", transferStreamRoutes);
