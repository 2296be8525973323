// The sandbox's own drills and inspection, not part of a real PSP (CONTRACT §4): an outage of the
// PSP API for fault tests and demos, and what the sandbox holds (each payment, whether money left).
// Mounted by sandbox.ts; the outage's effect is its guard on the PSP routes there.
import { Hono } from "hono";
import { z } from "zod";
import { sandbox } from "../provider/sandbox/reply.ts";
import { callObject } from "../web/object-call.ts";
import { notFound } from "../web/problem.ts";
import { jsonRequestBody, jsonResponse, problemResponse } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { pspResponse, sandboxOperation } from "./openapi/sandbox.ts";
import type { SandboxEnv } from "./sandbox-env.ts";
import { paymentKey } from "./sandbox-payments.ts";

export const sandboxDrillRoutes = new Hono<SandboxEnv>();

/** Longest outage one call can start: fault injection for tests and demos, bounded. */
export const outageDurationMsMax = 600_000;
export const outageBodySchema = z.strictObject({ duration_ms: z.number().int().min(0).max(outageDurationMsMax) });

const sandboxOutageDoc = documented(
  sandboxOperation({
    operationId: "sandboxOutage",
    summary: "Fault drill: take the PSP API down for a while",
    description: "Not part of a real PSP: its `/provider/pix` API answers `503 { code: unavailable }` until the outage ends.",
    security: [],
    requestBody: jsonRequestBody("SandboxOutageRequest"),
    responses: {
      "200": jsonResponse("When the outage ends.", "SandboxOutage"),
      "400": pspResponse("Invalid body: `{ code: invalid_request }`."),
    },
  }),
);

// Fault injection (not part of a real PSP): the PSP API answers 503 until the outage ends.
sandboxDrillRoutes.post("/provider/outage", sandboxOutageDoc, async (c) => {
  const body = outageBodySchema.safeParse(await c.req.json().catch(() => null));
  if (!body.success) return c.json({ code: "invalid_request" }, 400);
  const { outageUntilMs } = await callObject(c, "sandbox.start_outage", () => sandbox(c).startOutage(body.data.duration_ms));
  return c.json({ outage_until: new Date(outageUntilMs).toISOString() });
});

const sandboxPaymentsDoc = documented(
  sandboxOperation({
    operationId: "sandboxPayments",
    summary: "Everything the sandbox holds",
    description: "For tests and demos: each payment with its call counts and whether money left.",
    security: [],
    responses: { "200": jsonResponse("The payments.", "SandboxPaymentList") },
  }),
);

sandboxDrillRoutes.get("/provider/payments", sandboxPaymentsDoc, async (c) => {
  return c.json({ data: await callObject(c, "sandbox.payments", () => sandbox(c).payments()) });
});

const sandboxPaymentDoc = documented(
  sandboxOperation({
    operationId: "sandboxPayment",
    summary: "One payment the sandbox holds",
    description: "`made` tells whether money actually left.",
    security: [],
    parameters: [paymentKey],
    responses: {
      "200": jsonResponse("The payment.", "SandboxPayment"),
      "404": problemResponse("The sandbox never saw this key."),
    },
  }),
);

sandboxDrillRoutes.get("/provider/payments/:idempotency_key", sandboxPaymentDoc, async (c) => {
  const view = await callObject(c, "sandbox.payment", () => sandbox(c).payment(c.req.param("idempotency_key")));
  if (view === null) return notFound(c, "The sandbox never saw this idempotency key.");
  return c.json(view);
});
