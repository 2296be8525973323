// The sandbox PSP's contestation API (CONTRACT §4): `POST /provider/pix/{key}/contestations`
// takes one for a confirmed payment, `GET /provider/contestations/{id}` reads its decision. The
// sandbox object decides it (src/provider/sandbox/contestations.ts); answers are `{code}` JSON
// like the rest of the PSP API. Mounted under /sandbox by sandbox.ts, after its guards.
import { Hono } from "hono";
import { z } from "zod";
import type { SandboxAnswer } from "../provider/sandbox/answers.ts";
import { answerWith, sandbox } from "../provider/sandbox/reply.ts";
import { contestationReasons, detailsLengthMax } from "../saga/contestations.ts";
import { callObject } from "../web/object-call.ts";
import { jsonRequestBody, pathParameter } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { pspResponse, sandboxOperation } from "./openapi/sandbox.ts";
import type { SecurityRequirement } from "./openapi/types.ts";
import type { SandboxEnv } from "./sandbox-env.ts";

export const providerContestBodySchema = z.object({
  reason: z.enum(contestationReasons),
  details: z.string().min(1).max(detailsLengthMax),
});

const keySchema = z.string().regex(/^[\x21-\x7e]{1,255}$/);
const idSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,200}$/);
const providerSecurity: SecurityRequirement[] = [{ providerToken: [] }, {}];

export const sandboxContestationRoutes = new Hono<SandboxEnv>();

const contestDoc = documented(
  sandboxOperation({
    operationId: "sandboxContest",
    summary: "PSP: contest a confirmed Pix (MED 2.0)",
    description:
      "`{ reason, details }` → `201 { id, status: submitted }`; a repeat for the same payment answers the same contestation (`200`, its status as now). Decided `SANDBOX_CONFIRM_MS` later by the payment's key: `med-accept…` (email) `accepted`, the whole amount back as a `fraud` return; `med-partial…` `partially_accepted`, half (rounded down) back; any other `rejected`. The refund shows among the payment's `returns` (and Efí's `devolucoes`), and the payment gets a new webhook when it is decided.",
    security: providerSecurity,
    parameters: [pathParameter("idempotency_key", "The payment's idempotency key (our transfer id).", { type: "string" })],
    requestBody: jsonRequestBody("ProviderContestRequest"),
    responses: {
      "201": pspResponse("Taken: `{ id, status: submitted }`."),
      "200": pspResponse("A repeat: the same contestation, `{ id, status }`."),
      "400": pspResponse("Invalid body: `{ code: invalid_request }`."),
      "404": pspResponse("No such payment: `{ code: not_found }`."),
      "409": pspResponse("The payment is not confirmed: `{ code: not_confirmed }`."),
      "5XX": pspResponse("Unavailable: ask again."),
    },
  }),
);

sandboxContestationRoutes.post("/provider/pix/:idempotency_key/contestations", contestDoc, async (c) => {
  const key = keySchema.safeParse(c.req.param("idempotency_key"));
  const body = providerContestBodySchema.safeParse(await c.req.json().catch(() => null));
  if (!key.success || !body.success) return c.json({ code: "invalid_request" }, 400);
  const confirmMs = c.var.config.sandboxConfirmMs;
  return answerWith(
    c,
    await callObject<SandboxAnswer>(c, "sandbox.contest", () => sandbox(c).contest(key.data, body.data.reason, confirmMs)),
  );
});

const decisionDoc = documented(
  sandboxOperation({
    operationId: "sandboxContestation",
    summary: "PSP: a contestation's decision",
    description: "`{ id, status: submitted | accepted | partially_accepted | rejected }`.",
    security: providerSecurity,
    parameters: [pathParameter("id", "The contestation's id, as the PSP gave it.", { type: "string" })],
    responses: {
      "200": pspResponse("Its status."),
      "404": pspResponse("No such contestation: `{ code: not_found }`."),
      "5XX": pspResponse("Unavailable: ask again."),
    },
  }),
);

sandboxContestationRoutes.get("/provider/contestations/:id", decisionDoc, async (c) => {
  if (await callObject(c, "sandbox.in_outage", () => sandbox(c).inOutage())) return c.json({ code: "unavailable" }, 503);
  const id = idSchema.safeParse(c.req.param("id"));
  if (!id.success) return c.json({ code: "invalid_request" }, 400);
  return answerWith(c, await callObject<SandboxAnswer>(c, "sandbox.contestation", () => sandbox(c).contestation(id.data)));
});
