// POST /webhooks/provider (CONTRACT §3). Raw bytes first, then the signature, then parsing: a
// webhook is only a hint that makes the transfer's saga ask the provider now; its content never
// decides anything, so anything signed gets 202 and anything unsigned gets 401 and nothing else.
import { type Context, Hono } from "hono";
import { z } from "zod";
import { uuidPatternAnyCase } from "../lib/ids.ts";
import { log } from "../lib/log.ts";
import { verifyWebhook } from "../lib/webhook-signature.ts";
import { problem } from "../web/problem.ts";
import { jsonRequestBody, jsonResponse, problemResponse } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import type { Parameter } from "./openapi/types.ts";
import { pokeInBackground } from "./poke-sagas.ts";
import { jsonStringProblems } from "./text.ts";

/** Provider events are a few hundred bytes; more is not a provider event. */
export const webhookBodyBytesMax = 16 * 1024;

/** Loose on purpose: only the key is used, and an unknown event type must not stop the poke. */
export const webhookPayloadSchema = z.object({
  type: z.string().max(128),
  data: z.object({ idempotency_key: z.string().max(255) }),
});

export const webhookRoutes = new Hono<{ Bindings: Env }>();

const webhookHeaders: Parameter[] = [
  { name: "webhook-id", in: "header", required: true, description: "The message id; a redelivery repeats it.", schema: { type: "string" } },
  {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "Unix seconds; more than 300 s away from our clock is refused.",
    schema: { type: "string", pattern: "^\\d+$" },
  },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    description: 'Space-separated `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{raw body}">`; one matching any secret is enough.',
    schema: { type: "string" },
  },
];

const providerWebhookDoc = documented({
  operationId: "providerWebhook",
  summary: "Provider event",
  description:
    "Verified over the exact raw bytes (Standard Webhooks). A valid one is `202` whatever it says: it never changes a transfer by its content, it only makes that transfer's saga ask the provider for the status now. Duplicates are harmless.",
  tags: ["webhooks"],
  security: [{ webhookSignature: [] }],
  parameters: webhookHeaders,
  requestBody: jsonRequestBody("WebhookEvent"),
  responses: {
    "202": jsonResponse("Received.", "WebhookAck"),
    "401": problemResponse("Missing or bad signature, or a stale timestamp; nothing happened."),
    "413": problemResponse("The body is over 16 KiB."),
  },
});

webhookRoutes.post("/provider", providerWebhookDoc, async (c) => {
  const webhookId = c.req.header("webhook-id")?.slice(0, 256) ?? null;
  const declaredBytes = Number(c.req.header("content-length") ?? "0");
  if (declaredBytes > webhookBodyBytesMax) return tooLarge(c, webhookId);
  const rawBody = new Uint8Array(await c.req.arrayBuffer());
  if (rawBody.byteLength > webhookBodyBytesMax) return tooLarge(c, webhookId);

  const nowSeconds = Math.floor(Date.now() / 1000);
  const verification = await verifyWebhook({ secrets: c.env.WEBHOOK_SECRET ?? "", headers: c.req.raw.headers, rawBody, nowSeconds });
  if (!verification.ok) {
    const level = verification.reason === "secret_misconfigured" ? "error" : "warn";
    log(c, "provider_webhook", { webhook_id: webhookId, idempotency_key: null, outcome: `rejected_${verification.reason}` }, level);
    return problem(c, 401, { type: "unauthorized", detail: "The webhook signature is missing, invalid or too old." });
  }

  const payload = parsePayload(rawBody);
  if (payload === null || !uuidPatternAnyCase.test(payload.data.idempotency_key)) {
    log(c, "provider_webhook", { webhook_id: webhookId, idempotency_key: payload?.data.idempotency_key ?? null, outcome: "ignored" });
    return c.json({ received: true }, 202);
  }

  // Transfer ids are lowercase UUIDs and name their saga's Durable Object exactly. Still 202
  // if the poke fails: the saga checks the provider on its own schedule and the sweeper catches
  // it; a 5xx would only make the provider resend a hint.
  const idempotencyKey = payload.data.idempotency_key.toLowerCase();
  pokeInBackground(c, [idempotencyKey], "provider_webhook", { webhook_id: webhookId, type: payload.type });
  return c.json({ received: true }, 202);
});

function parsePayload(rawBody: Uint8Array): z.infer<typeof webhookPayloadSchema> | null {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(rawBody));
    // Control characters are no part of a provider event: such a body is ignored like any
    // other unreadable one (still 202: the signature was good, and nothing is written).
    if (jsonStringProblems(value).length > 0) return null;
    const parsed = webhookPayloadSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function tooLarge(c: Context, webhookId: string | null): Response {
  log(c, "provider_webhook", { webhook_id: webhookId, idempotency_key: null, outcome: "rejected_too_large" }, "warn");
  return problem(c, 413, { type: "payload-too-large", detail: `Webhook bodies are at most ${webhookBodyBytesMax} bytes.` });
}
