// Client contestations (CONTRACT §2 "Contestations", MED 2.0): contest one of your completed Pix
// (Idempotency-Key replays as for transfers), read them, cancel one while open or submitted.
// Every write goes through the transfer's own object, which serialises it with the driving of
// the contestation (src/saga-runtime/contestations.ts); the money only ever comes back as a return.
import { type Context, Hono } from "hono";
import { z } from "zod";
import { uuidPattern } from "../lib/ids.ts";
import { contestationReasons, detailsLengthMax } from "../saga/contestations.ts";
import type { ContestationStepResult, ContestResult } from "../saga-runtime/rpc-results.ts";
import { contestationForAccount, contestationsOfTransfer } from "../transfers/contestation-reads.ts";
import { callObject } from "../web/object-call.ts";
import { notFound, problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { withRequestDb } from "./db.ts";
import { requestFingerprint } from "./fingerprint.ts";
import { requireIdempotencyKey } from "./idempotency-key.ts";
import {
  idempotencyKeyParameter,
  idempotentReplayedHeader,
  jsonRequestBody,
  jsonResponse,
  pathParameter,
  problemResponse,
  retryAfterHeader,
  transferIdParameter,
} from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { clientAuthResponses, clientSecurity } from "./openapi/security.ts";
import { ownTransfer } from "./own-transfer.ts";
import { jsonBody } from "./validation.ts";

export const createContestationBody = z.strictObject({
  reason: z.enum(contestationReasons).describe("fraud, scam or coercion"),
  details: z.string().min(1).max(detailsLengthMax).describe("What happened, in the customer's words: 1 to 2000 characters"),
});

/** Why a contestation cannot be made now, as the client is told (409). */
const refusals = {
  not_completed: "Only a completed transfer can be contested.",
  window_closed: "A transfer can be contested at most 80 days after it completed.",
  wholly_returned: "This transfer's whole amount has already come back.",
  already_contested: "This transfer has a contestation that is not final yet: cancel it or wait for its decision.",
} as const;

const unavailable = (c: Context<AppEnv>, detail: string) =>
  problem(c, 503, { type: "unavailable", detail, headers: { "Retry-After": "1" } });

/** Under /v1/transfers: contest one, list its contestations. */
export const transferContestationRoutes = new Hono<AppEnv>();

const createDoc = documented({
  operationId: "createContestation",
  summary: "Contest one of your Pix (MED 2.0)",
  description: [
    "For a customer who was defrauded, scammed or coerced: contests a `completed` transfer, at most 80 days after it completed, not wholly returned, with no other contestation that is not final. Answers `201` with the contestation in `open`; a provider that takes contestations gets it at once (`submitted`), and its decision is read by asking it. Past `deadline_at` (11 days) without a decision, operators are alerted.",
    "The money, when it comes back, comes as a return of the transfer (`reason: fraud`), credited once; the contestation's `returned_cents` shows it. A contestation never credits anything by itself.",
    "**Idempotency**: as for `POST /v1/transfers`: the same `Idempotency-Key` with the same request returns the first response with `Idempotent-Replayed: true`; with a different request (another transfer, reason or details), `422`. Keys are scoped to your account.",
  ].join("\n\n"),
  tags: ["contestations"],
  security: clientSecurity,
  parameters: [transferIdParameter, idempotencyKeyParameter],
  requestBody: jsonRequestBody("CreateContestationRequest"),
  responses: {
    "201": jsonResponse("The contestation (or the replay of the first response).", "Contestation", idempotentReplayedHeader),
    "400": problemResponse("Missing or invalid `Idempotency-Key`, malformed JSON, or invalid fields (see `errors`). Nothing was written."),
    ...clientAuthResponses,
    "404": problemResponse("No transfer of yours with this id."),
    "409": problemResponse(
      "The transfer is not `completed`, completed more than 80 days ago, wholly returned, or already has a contestation that is not final. Nothing was written.",
    ),
    "413": problemResponse("The body is over 16 KiB."),
    "422": problemResponse("This `Idempotency-Key` was used with a different request (`type` ends in `/idempotency-key-reused`)."),
    "503": problemResponse("The contestation could not be confirmed: retry with the same `Idempotency-Key`.", retryAfterHeader),
  },
});

transferContestationRoutes.post("/:id/contestations", createDoc, jsonBody(createContestationBody), async (c) => {
  const transferId = c.req.param("id");
  const idempotencyKey = requireIdempotencyKey(c);
  const { reason, details } = c.req.valid("json");
  const own = await ownTransfer(c, transferId);
  if (!own.found) return own.answer;
  const input = {
    id: crypto.randomUUID(),
    accountId: c.get("accountId"),
    transferId,
    idempotencyKey,
    requestFingerprint: await requestFingerprint(["contestation", transferId, reason, details]),
    reason,
    details,
  };
  const notConfirmed = "The contestation could not be confirmed; retry with the same Idempotency-Key.";
  const result = await callObject<ContestResult>(
    c,
    "contest",
    () => c.env.TRANSFER_SAGA.getByName(transferId).contest(input),
    notConfirmed,
  );
  switch (result.outcome) {
    case "created":
      return c.body(result.responseBody, 201, { "content-type": "application/json" });
    case "replayed": {
      // The Worker's own retry of an interrupted call finds its first try committed: that is
      // this request's first answer, not a replay.
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (result.contestationId !== input.id) headers["Idempotent-Replayed"] = "true";
      return c.body(result.responseBody, 201, headers);
    }
    case "key_reused":
      return problem(c, 422, { type: "idempotency-key-reused", detail: "This Idempotency-Key was used with a different request." });
    case "transfer_not_found":
      return notFound(c, "No such transfer.");
    case "not_completed":
    case "window_closed":
    case "wholly_returned":
    case "already_contested":
      return problem(c, 409, { type: "conflict", detail: refusals[result.outcome] });
    case "unavailable":
      return unavailable(c, notConfirmed);
  }
});

const listDoc = documented({
  operationId: "listTransferContestations",
  summary: "The contestations of one of your transfers",
  description: "Oldest first: `{ data: [...] }`.",
  tags: ["contestations"],
  security: clientSecurity,
  parameters: [transferIdParameter],
  responses: {
    "200": jsonResponse("Its contestations.", "ContestationList"),
    ...clientAuthResponses,
    "404": problemResponse("No transfer of yours with this id."),
  },
});

transferContestationRoutes.get("/:id/contestations", listDoc, async (c) => {
  const transferId = c.req.param("id");
  const own = await ownTransfer(c, transferId);
  if (!own.found) return own.answer;
  return c.json({ data: await withRequestDb(c, (db) => contestationsOfTransfer(db, transferId)) });
});

/** /v1/contestations: one by id, and its cancel. */
export const contestationRoutes = new Hono<AppEnv>();

const contestationIdParameter = pathParameter("id", "The contestation id.", { type: "string", format: "uuid" });

type OwnContestation = { found: true; transferId: string; resource: Record<string, unknown> } | { found: false; answer: Response };

async function ownContestation(c: Context<AppEnv>, id: string): Promise<OwnContestation> {
  // A malformed id names none, but an unknown account must still get its 403: the nil UUID.
  const lookupId = uuidPattern.test(id) ? id : "00000000-0000-0000-0000-000000000000";
  const read = await withRequestDb(c, (db) => contestationForAccount(db, lookupId, c.get("accountId")));
  if (read.outcome === "account_not_found")
    return { found: false, answer: problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." }) };
  if (read.outcome === "not_found") return { found: false, answer: notFound(c, "No such contestation.") };
  return { found: true, transferId: read.contestation.transfer_id, resource: read.contestation };
}

const getDoc = documented({
  operationId: "getContestation",
  summary: "Get one of your contestations",
  description: "Another account's contestation is indistinguishable from none: `404`.",
  tags: ["contestations"],
  security: clientSecurity,
  parameters: [contestationIdParameter],
  responses: {
    "200": jsonResponse("The contestation.", "Contestation"),
    ...clientAuthResponses,
    "404": problemResponse("No contestation of yours with this id."),
  },
});

contestationRoutes.get("/:id", getDoc, async (c) => {
  const own = await ownContestation(c, c.req.param("id"));
  return own.found ? c.json(own.resource) : own.answer;
});

const cancelDoc = documented({
  operationId: "cancelContestation",
  summary: "Cancel one of your contestations",
  description:
    "While `open` or `submitted`: `200` with the contestation, now `canceled`, and nothing more is asked of the provider. Any other state is `409`. A refund the provider sends anyway still comes back as a return.",
  tags: ["contestations"],
  security: clientSecurity,
  parameters: [contestationIdParameter],
  responses: {
    "200": jsonResponse("The contestation, now `canceled`.", "Contestation"),
    ...clientAuthResponses,
    "404": problemResponse("No contestation of yours with this id."),
    "409": problemResponse("The contestation is decided or canceled already: nothing was changed."),
    "503": problemResponse("The cancel could not be confirmed; try again.", retryAfterHeader),
  },
});

contestationRoutes.post("/:id/cancel", cancelDoc, async (c) => {
  const id = c.req.param("id");
  const own = await ownContestation(c, id);
  if (!own.found) return own.answer;
  const notConfirmed = "The cancel could not be confirmed; try again.";
  const result = await callObject<ContestationStepResult>(
    c,
    "contestation_cancel",
    () => c.env.TRANSFER_SAGA.getByName(own.transferId).contestationStep(id, { kind: "cancel" }),
    notConfirmed,
  );
  switch (result.outcome) {
    case "done": {
      const read = await withRequestDb(c, (db) => contestationForAccount(db, id, c.get("accountId")));
      return read.outcome === "found" ? c.json(read.contestation) : notFound(c, "No such contestation.");
    }
    case "wrong_state":
      return problem(c, 409, {
        type: "conflict",
        detail: `Only an open or submitted contestation can be canceled; this one is ${result.state}.`,
      });
    case "not_found":
    case "provider_drives_it":
      return notFound(c, "No such contestation.");
    case "unavailable":
      return unavailable(c, notConfirmed);
  }
});
