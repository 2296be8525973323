// Operators' contestations (CONTRACT §5): the queue, oldest first, with each one's transfer and
// deadline; and, for a provider without a contestation API (Efí), a person's record of the
// hand-over (`submitted`, with the PSP's reference) and of the decision, audited in the same
// transaction as the change. A machine (ops-token) may read but not record: 403.
import { type Context, Hono } from "hono";
import { z } from "zod";
import { isMachine } from "../../auth/operators.ts";
import { businessNowMs } from "../../clock/business-time.ts";
import { configuredOrThrow } from "../../config/isolate.ts";
import { uuidPattern } from "../../lib/ids.ts";
import { pspRefSchema } from "../../provider/classify-contestation.ts";
import { contestationOutcomes, contestationStates } from "../../saga/contestations.ts";
import type { ContestationStep } from "../../saga-runtime/contestation-steps.ts";
import type { ContestationStepResult } from "../../saga-runtime/rpc-results.ts";
import {
  contestationForOps,
  contestationOwner,
  contestationsForOps,
  opsContestationsListedMax,
} from "../../transfers/contestation-reads.ts";
import { callObject } from "../../web/object-call.ts";
import { notFound, problem } from "../../web/problem.ts";
import type { AppEnv } from "../app-env.ts";
import { opsOperator } from "../auth/ops-auth.ts";
import { requestBusinessNowMs } from "../business-now.ts";
import { withRequestDb } from "../db.ts";
import { jsonRequestBody, jsonResponse, pathParameter, problemResponse, queryParameters, retryAfterHeader } from "../openapi/build.ts";
import { documented } from "../openapi/describe.ts";
import { opsAuthResponses, opsSecurity } from "../openapi/security.ts";
import { jsonBody, queryParams } from "../validation.ts";
import { resolveNoteLengthMax } from "./transfers.ts";

export const opsContestationsQuery = z.strictObject({
  state: z.enum(contestationStates).optional(),
  limit: z.coerce.number().int().min(1).max(opsContestationsListedMax).default(100),
});

const note = z.string().trim().min(1).max(resolveNoteLengthMax);
export const opsSubmittedBody = z.strictObject({ psp_ref: pspRefSchema.describe("The PSP's reference of the contestation"), note });
export const opsDecisionBody = z.strictObject({ outcome: z.enum(contestationOutcomes), note });

export const opsContestationRoutes = new Hono<AppEnv>();

const listDoc = documented({
  operationId: "opsListContestations",
  summary: "Contestations (MED 2.0): the queue",
  description:
    "Oldest first, each with its account, the provider's reference, its transfer and `deadline_at` (`past_deadline` once it passed without a decision). With `state=open`: what operators must hand to a provider without a contestation API (Efí).",
  tags: ["operators"],
  security: opsSecurity,
  parameters: queryParameters(opsContestationsQuery, { state: "Only contestations in this state.", limit: "At most this many." }),
  responses: {
    "200": jsonResponse("The contestations.", "OpsContestationList"),
    "400": problemResponse("An unknown state or limit, or an unknown query parameter."),
    ...opsAuthResponses,
  },
});

opsContestationRoutes.get("/", listDoc, queryParams(opsContestationsQuery), async (c) => {
  const q = c.req.valid("query");
  // Business time decides which are past their deadline.
  const businessNow = await requestBusinessNowMs(c, configuredOrThrow(c.env));
  const data = await withRequestDb(c, (db) =>
    contestationsForOps(db, { state: q.state ?? null, order: "oldest", limit: q.limit, businessNowMs: businessNow }),
  );
  return c.json({ data });
});

const idParameter = pathParameter("id", "The contestation id.", { type: "string", format: "uuid" });

const stepResponses = {
  "200": jsonResponse("The contestation after the change.", "OpsContestation"),
  "400": problemResponse("Invalid fields (see `errors`)."),
  ...opsAuthResponses,
  "404": problemResponse("No such contestation."),
  "409": problemResponse(
    "Not from this state (`submitted` only from `open`, a decision only from `submitted`), or the provider takes contestations itself, so its object records them.",
  ),
  "413": problemResponse("The body is over 16 KiB."),
  "503": problemResponse("The change could not be recorded; try again.", retryAfterHeader),
};

const submittedDoc = documented({
  operationId: "opsContestationSubmitted",
  summary: "Record that a contestation was handed to the provider",
  description:
    "For a provider without a contestation API (Efí): a person records the PSP's reference once they filed it (from `open`; `submitted`). Audited as `contestation_submitted` with the note; by a person only.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: [idParameter],
  requestBody: jsonRequestBody("OpsContestationSubmittedRequest"),
  responses: stepResponses,
});

opsContestationRoutes.post("/:id/submitted", submittedDoc, jsonBody(opsSubmittedBody, { lineBreakFields: ["note"] }), async (c) => {
  const { psp_ref: pspRef, note: text } = c.req.valid("json");
  return recordStep(c, (actor) => ({ kind: "submitted", pspRef, note: text, actor }));
});

const decisionDoc = documented({
  operationId: "opsContestationDecision",
  summary: "Record the provider's decision on a contestation",
  description:
    "For a provider without a contestation API (Efí): from `submitted`, `accepted`, `partially_accepted` or `rejected`. Audited as `contestation_decided` with the note; by a person only. Records no money: after a decision in the customer's favour the transfer's returns are read, and the refund is credited when it comes back as a `fraud` return.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: [idParameter],
  requestBody: jsonRequestBody("OpsContestationDecisionRequest"),
  responses: stepResponses,
});

opsContestationRoutes.post("/:id/decision", decisionDoc, jsonBody(opsDecisionBody, { lineBreakFields: ["note"] }), async (c) => {
  const { outcome, note: text } = c.req.valid("json");
  return recordStep(c, (actor) => ({ kind: "decision", outcome, note: text, actor }));
});

async function recordStep(c: Context<AppEnv>, stepOf: (actor: string) => ContestationStep): Promise<Response> {
  const id = c.req.param("id") ?? "";
  const operator = opsOperator(c.var);
  if (isMachine(operator)) {
    return problem(c, 403, {
      type: "forbidden",
      detail: "Only a person signed in through Cloudflare Access may record a contestation's steps.",
    });
  }
  const owner = uuidPattern.test(id) ? await withRequestDb(c, (db) => contestationOwner(db, id)) : null;
  if (owner === null) return notFound(c, "No such contestation.");
  const notRecorded = "The change could not be recorded; try again.";
  const result = await callObject<ContestationStepResult>(
    c,
    "contestation_step",
    () => c.env.TRANSFER_SAGA.getByName(owner.transferId).contestationStep(id, stepOf(operator.actor)),
    notRecorded,
  );
  switch (result.outcome) {
    case "done": {
      // Recorded already: not requestBusinessNowMs, whose 503 says nothing was written.
      const config = configuredOrThrow(c.env);
      const item = await withRequestDb(c, async (db) => contestationForOps(db, id, await businessNowMs(db, config)));
      return item === null ? notFound(c, "No such contestation.") : c.json(item);
    }
    case "wrong_state":
      return problem(c, 409, {
        type: "conflict",
        detail: `Not from ${result.state}: submitted is recorded from open, a decision from submitted.`,
      });
    case "provider_drives_it":
      return problem(c, 409, {
        type: "conflict",
        detail: "The provider takes contestations itself: its object hands them over and reads the decision.",
      });
    case "not_found":
      return notFound(c, "No such contestation.");
    case "unavailable":
      return problem(c, 503, { type: "unavailable", detail: notRecorded, headers: { "Retry-After": "1" } });
  }
}
