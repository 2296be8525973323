// Operator transfer routes (CONTRACT §5): the queue, one transfer's story, resolve, sweep.
import { Hono } from "hono";
import { z } from "zod";
import { accountIdPattern, uuidPattern } from "../../lib/ids.ts";
import { transferStates } from "../../saga/states.ts";
import type { ResolveResult } from "../../saga-runtime/rpc-results.ts";
import { sweep } from "../../sweeper.ts";
import { listTransfersForOps, transferStory } from "../../transfers/ops-reads.ts";
import { callObject } from "../../web/object-call.ts";
import { notFound, problem } from "../../web/problem.ts";
import type { AppEnv } from "../app-env.ts";
import { withRequestDb } from "../db.ts";
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

opsTransferRoutes.get("/", queryParams(opsListTransfersQuery), async (c) => {
  const q = c.req.valid("query");
  const data = await withRequestDb(c, (db) =>
    listTransfersForOps(db, { state: q.state ?? null, accountId: q.account_id ?? null, limit: q.limit }),
  );
  return c.json({ data });
});

opsTransferRoutes.get("/:id", async (c) => {
  const id = c.req.param("id");
  const story = uuidPattern.test(id) ? await withRequestDb(c, (db) => transferStory(db, id)) : null;
  if (!story) return notFound(c, "No such transfer.");
  return c.json(story);
});

opsTransferRoutes.post("/:id/resolve", jsonBody(resolveBody, { lineBreakFields: ["note"] }), async (c) => {
  const id = c.req.param("id");
  if (!uuidPattern.test(id)) return notFound(c, "No such transfer.");
  const { outcome, note } = c.req.valid("json");
  const notRecorded = "The resolution could not be recorded; try again.";
  const result = await callObject<ResolveResult>(
    c,
    "resolve",
    () => c.env.TRANSFER_SAGA.getByName(id).resolve(outcome, note, c.get("actor")),
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

opsSweepRoutes.post("/", async (c) => c.json(await sweep(c.env)));
