// Client transfers (CONTRACT §2): create with Idempotency-Key semantics, read one, list.
import { type Context, Hono } from "hono";
import { z } from "zod";
import { configuredOrThrow } from "../config/isolate.ts";
import { localClockFields } from "../limits/clock.ts";
import type { StartResult } from "../saga-object.ts";
import { listTransfersForAccount } from "../transfers/reads.ts";
import type { AppEnv } from "./app-env.ts";
import { withRequestDb } from "./db.ts";
import { requestFingerprint } from "./fingerprint.ts";
import { requireIdempotencyKey } from "./idempotency-key.ts";
import { callObject } from "./object-call.ts";
import { ownTransfer } from "./own-transfer.ts";
import { normalisePixKey, pixKeyInputLengthMax, pixKeyTypes } from "./pix-key.ts";
import { problem } from "./problem.ts";
import { limitTransferRate } from "./rate-limit.ts";
import { log } from "./request-id.ts";
import { cancelTransfer, readSchedule } from "./transfer-schedule.ts";
import { jsonBody, queryParams, validationProblem } from "./validation.ts";

export const descriptionLengthMax = 140;
export const listLimitMax = 100;

export const createTransferBody = z.strictObject({
  amount_cents: z.number().int().min(1),
  pix_key: z.string().min(1).max(pixKeyInputLengthMax),
  pix_key_type: z.enum(pixKeyTypes),
  description: z.string().max(descriptionLengthMax).nullable().optional(),
  scheduled_for: z
    .string()
    .max(10)
    .nullable()
    .optional()
    .describe("YYYY-MM-DD: a São Paulo date after today, at most 365 days ahead. Schedules the transfer for that day"),
});

export const listTransfersQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(listLimitMax).default(20),
  cursor: z.string().max(200).optional(),
});

export const transferRoutes = new Hono<AppEnv>();

transferRoutes.post("/", limitTransferRate(), jsonBody(createTransferBody), async (c) => {
  const accountId = c.get("accountId");
  const idempotencyKey = requireIdempotencyKey(c);
  const body = c.req.valid("json");
  const config = configuredOrThrow(c.env);
  const amountMaxCents = config.rules.per_transfer_cents;
  if (body.amount_cents > amountMaxCents) {
    return validationProblem(c, [{ field: "amount_cents", message: `must be at most ${amountMaxCents}` }]);
  }
  const key = normalisePixKey(body.pix_key_type, body.pix_key);
  if (!key.ok) return validationProblem(c, [{ field: "pix_key", message: key.message }]);
  const description = body.description ?? null;
  // A fresh id names the saga object; a replay finds the first transfer instead.
  const candidateId = crypto.randomUUID();
  const scheduled = readSchedule(body.scheduled_for ?? null, candidateId, Date.now());
  if (!scheduled.ok) return validationProblem(c, [{ field: "scheduled_for", message: scheduled.message }]);
  // The date is fingerprinted only when given, so an unscheduled request keeps its fingerprint.
  const fingerprinted = scheduled.schedule ? [{ scheduled_for: scheduled.schedule.scheduledFor }] : [];
  const fingerprint = await requestFingerprint([body.amount_cents, key.key, body.pix_key_type, description, ...fingerprinted]);

  const input = {
    id: candidateId,
    accountId,
    amountCents: body.amount_cents,
    pixKey: key.key,
    pixKeyType: body.pix_key_type,
    description,
    idempotencyKey,
    requestFingerprint: fingerprint,
    deadlineMs: config.sagaTimings.deadlineMs,
    ...localClockFields(Date.now()),
    rules: config.rules,
    schedule: scheduled.schedule,
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

transferRoutes.get("/", queryParams(listTransfersQuery), async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const page = await withRequestDb(c, (db) => listTransfersForAccount(db, c.get("accountId"), limit, cursor ?? null));
  if (page.outcome === "account_not_found")
    return problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." });
  if (page.outcome === "bad_cursor") return validationProblem(c, [{ field: "cursor", message: "not a cursor from this API" }]);
  return c.json({ data: page.data, next_cursor: page.nextCursor });
});

transferRoutes.get("/:id", async (c) => {
  const own = await ownTransfer(c, c.req.param("id"));
  return own.found ? c.json(own.transfer) : own.answer;
});

transferRoutes.post("/:id/cancel", cancelTransfer);

/** The live stream (text/event-stream), served by the transfer's own object after the owner check. */
transferRoutes.get("/:id/events", async (c) => {
  const id = c.req.param("id");
  const lastEventId = c.req.header("last-event-id");
  if (lastEventId !== undefined && !/^\d{1,9}$/.test(lastEventId))
    return validationProblem(c, [{ field: "Last-Event-ID", message: "the sequence of an event this stream sent" }]);
  const own = await ownTransfer(c, id);
  if (!own.found) return own.answer;
  const streamed = await c.env.TRANSFER_SAGA.getByName(id).fetch(
    new Request("https://transfer-saga/events", { headers: lastEventId === undefined ? {} : { "last-event-id": lastEventId } }),
  );
  // A fresh Response: the object's has immutable headers, and the edge adds its own (no-store).
  if (streamed.status === 200) return new Response(streamed.body, streamed);
  await streamed.body?.cancel();
  return problem(c, 503, { type: "unavailable", detail: "The stream could not be opened; try again.", headers: { "Retry-After": "1" } });
});
