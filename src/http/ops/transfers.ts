// Operator transfer routes (CONTRACT §5): the queue, one transfer's story, resolve, sweep.
import { Hono } from "hono";
import { z } from "zod";
import { mayResolveAs } from "../../auth/operators.ts";
import { accountIdPattern, uuidPattern } from "../../lib/ids.ts";
import { transferStates } from "../../saga/states.ts";
import type { ResolveResult } from "../../saga-runtime/rpc-results.ts";
import { sweep } from "../../sweeper.ts";
import { listTransfersForOps, transferStory } from "../../transfers/ops-reads.ts";
import { callObject } from "../../web/object-call.ts";
import { notFound, problem } from "../../web/problem.ts";
import type { AppEnv } from "../app-env.ts";
import { opsOperator } from "../auth/ops-auth.ts";
import { withRequestDb } from "../db.ts";
import {
  jsonRequestBody,
  jsonResponse,
  problemResponse,
  queryParameters,
  retryAfterHeader,
  transferIdParameter,
} from "../openapi/build.ts";
import { documented } from "../openapi/describe.ts";
import { opsAuthResponses, opsSecurity } from "../openapi/security.ts";
import { jsonBody, queryParams } from "../validation.ts";

export const resolveNoteLengthMax = 1_000;

export const opsListTransfersQuery = z.strictObject({
  state: z.enum(transferStates).optional(),
  account_id: z.string().regex(accountIdPattern).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});

export const resolveBody = z.strictObject({
  outcome: z.enum(["sent", "not_sent", "approve"]),
  note: z.string().trim().min(1).max(resolveNoteLengthMax),
});

const wrongOutcomeDetails = {
  no_pix_to_settle:
    "This transfer was held before anything was sent (anti-fraud review): there is no Pix to settle. Resolve it with approve (send it) or not_sent.",
  nothing_to_approve: "This transfer was already sent to the provider: resolve it with sent or not_sent, as the provider's records show.",
} as const;

export const opsTransferRoutes = new Hono<AppEnv>();

const opsListTransfersDoc = documented({
  operationId: "opsListTransfers",
  summary: "Transfers of any account",
  description:
    "With `state`, a work queue (e.g. `needs_review`): oldest first. Without it, newest first. Filter by account with `account_id`.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: queryParameters(opsListTransfersQuery, {
    state: "Only transfers in this state.",
    account_id: "Only this account's transfers.",
    limit: "At most this many, 1 to 100.",
  }),
  responses: {
    "200": jsonResponse("The transfers, each with its account.", "OpsTransferList"),
    "400": problemResponse("An unknown state, a malformed account id or limit, or an unknown query parameter."),
    ...opsAuthResponses,
  },
});

opsTransferRoutes.get("/", opsListTransfersDoc, queryParams(opsListTransfersQuery), async (c) => {
  const q = c.req.valid("query");
  const data = await withRequestDb(c, (db) =>
    listTransfersForOps(db, { state: q.state ?? null, accountId: q.account_id ?? null, limit: q.limit }),
  );
  return c.json({ data });
});

const opsGetTransferDoc = documented({
  operationId: "opsGetTransfer",
  summary: "A transfer's whole story",
  description:
    "The transfer with its history (actor and evidence of each transition), every provider call with its answer, the hold and the ledger entries.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: [transferIdParameter],
  responses: { "200": jsonResponse("The story.", "TransferStory"), ...opsAuthResponses, "404": problemResponse("No such transfer.") },
});

opsTransferRoutes.get("/:id", opsGetTransferDoc, async (c) => {
  const id = c.req.param("id");
  const story = uuidPattern.test(id) ? await withRequestDb(c, (db) => transferStory(db, id)) : null;
  if (!story) return notFound(c, "No such transfer.");
  return c.json(story);
});

const opsResolveTransferDoc = documented({
  operationId: "opsResolveTransfer",
  summary: "Resolve a transfer in review",
  description:
    "Only from `needs_review`: `sent` settles it (`completed`), `not_sent` releases the hold (`compensated`, `not_sent`). A transfer held before anything was sent (`held_before_sending`, an anti-fraud review) takes `approve` (send it now) or `not_sent`. The note and the actor go into the operators' history and the audit; the client sees neither.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: [transferIdParameter],
  requestBody: jsonRequestBody("ResolveRequest"),
  responses: {
    "200": jsonResponse("The story after the decision.", "TransferStory"),
    "400": problemResponse("Invalid fields (see `errors`)."),
    ...opsAuthResponses,
    "404": problemResponse("No such transfer."),
    "409": problemResponse(
      "The transfer is not in `needs_review`, or the outcome does not fit it (`sent` before anything was sent, `approve` after).",
    ),
    "413": problemResponse("The body is over 16 KiB."),
    "503": problemResponse("The decision could not be recorded; try again.", retryAfterHeader),
  },
});

opsTransferRoutes.post("/:id/resolve", opsResolveTransferDoc, jsonBody(resolveBody, { lineBreakFields: ["note"] }), async (c) => {
  const id = c.req.param("id");
  if (!uuidPattern.test(id)) return notFound(c, "No such transfer.");
  const { outcome, note } = c.req.valid("json");
  const operator = opsOperator(c.var);
  if (!mayResolveAs(operator, outcome)) {
    return problem(c, 403, {
      type: "forbidden",
      detail: `Only a person signed in through Cloudflare Access may resolve a transfer as ${outcome}; ops-token may resolve not_sent.`,
    });
  }
  const notRecorded = "The resolution could not be recorded; try again.";
  const result = await callObject<ResolveResult>(
    c,
    "resolve",
    () => c.env.TRANSFER_SAGA.getByName(id).resolve(outcome, note, operator.actor),
    notRecorded,
  );
  if (result.outcome === "not_found") return notFound(c, "No such transfer.");
  if (result.outcome === "unavailable") {
    return problem(c, 503, {
      type: "unavailable",
      detail: notRecorded,
      headers: { "Retry-After": "1" },
    });
  }
  if (result.outcome === "wrong_outcome") return problem(c, 409, { type: "conflict", detail: wrongOutcomeDetails[result.refusal] });
  if (result.outcome === "not_in_review") {
    return problem(c, 409, { type: "conflict", detail: `Only a transfer in needs_review can be resolved; this one is ${result.state}.` });
  }
  const story = await withRequestDb(c, (db) => transferStory(db, id));
  return c.json(story);
});

export const opsSweepRoutes = new Hono<AppEnv>();

const opsSweepDoc = documented({
  operationId: "opsSweep",
  summary: "Run the stuck-saga sweeper now",
  description:
    "Pokes every saga whose next check is overdue, and observes the provider's health (the degraded-PSP alert, `provider.degraded` in `GET /ops/overview`); it also runs on a cron every minute.",
  tags: ["operators"],
  security: opsSecurity,
  responses: { "200": jsonResponse("How many sagas were poked.", "Sweep"), ...opsAuthResponses },
});

opsSweepRoutes.post("/", opsSweepDoc, async (c) =>
  c.json(await sweep(c.env, { waitUntil: (promise) => c.executionCtx.waitUntil(promise) })),
);
