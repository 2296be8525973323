// POST /webhooks/efi and /webhooks/efi/pix (CONTRACT §3b). Efí is registered with skip-mTLS, so
// authenticity is the secret `?hmac=` (compared in constant time) plus, when configured, Efí's
// source IPs. Like /webhooks/provider, a delivery is only a hint: each item naming one of our
// transfers (`gnExtras.idEnvio`) makes that saga ask Efí now; what the item claims decides nothing.
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { log } from "../lib/log.ts";
import { sameSecret } from "../lib/same-secret.ts";
import { problem } from "../web/problem.ts";
import { maxBodyBytes } from "./body-limit.ts";
import { jsonRequestBody, jsonResponse, problemResponse } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { pokeInBackground } from "./poke-sagas.ts";

/**
 * The Worker's body limit (body-limit.ts) applies first: about 50 of Efí's items per POST. A
 * bigger batch is answered 413 and Efí redelivers it; the sagas poll on their own meanwhile.
 */
export const efiWebhookBodyBytesMax = maxBodyBytes;
/** Distinct transfers poked per delivery: each poke may call Efí, and Efí waits 60 s at most. */
export const efiWebhookPokesMax = 50;

/** An idEnvio we made: a transfer id without dashes. */
const idEnvioPattern = /^[0-9a-f]{32}$/i;

/** Loose on purpose: only `gnExtras.idEnvio` is used; any other field may change shape freely. */
export const efiWebhookPayloadSchema = z.object({
  pix: z.array(z.object({ gnExtras: z.object({ idEnvio: z.string().max(64).optional() }).optional() }).loose()).max(1000),
});

export const efiWebhookRoutes = new Hono<{ Bindings: Env }>();

/** Both paths are described alike: one delivery, whichever URL Efí posted it to. */
function efiDeliveryDoc(operationId: string, summary: string): MiddlewareHandler {
  return documented({
    operationId,
    summary,
    description:
      'Efí\'s webhook (`PROVIDER=efi`), registered with `x-skip-mtls-checking: true`. The `hmac` query parameter must equal `EFI_WEBHOOK_HMAC` (constant-time compare; with the `/pix` Efí appends to a URL registered without `&ignorar=`, too) and `CF-Connecting-IP` must be in `EFI_WEBHOOK_IPS` when that is set. Each item whose `gnExtras.idEnvio` names one of our transfers makes that saga ask Efí for the status now; the content decides nothing. Efí\'s registration test `{"evento":"teste_webhook"}` is `200`.',
    tags: ["webhooks"],
    security: [{ efiWebhookHmac: [] }],
    parameters: [
      { name: "ignorar", in: "query", required: false, description: "Efí's marker: no `/pix` is appended.", schema: { type: "string" } },
    ],
    requestBody: jsonRequestBody("EfiWebhookDelivery"),
    responses: {
      "200": jsonResponse("Received.", "WebhookAck"),
      "401": problemResponse("Missing or wrong hmac; nothing happened."),
      "403": problemResponse("Source address outside EFI_WEBHOOK_IPS; nothing happened."),
      "413": problemResponse("The body is over 16 KiB."),
    },
  });
}

// Efí appends `/pix` to the registered URL unless it ends in `?ignorar=`: both arrive here.
efiWebhookRoutes.post("/", efiDeliveryDoc("efiWebhook", "Efí delivery (registered URL)"), receive);
efiWebhookRoutes.post("/pix", efiDeliveryDoc("efiWebhookPix", "Efí Pix delivery (registered URL + /pix)"), receive);

async function receive(c: Context<{ Bindings: Env }>): Promise<Response> {
  // An unset EFI_WEBHOOK_HMAC matches nothing: fail closed.
  const secret = c.env.EFI_WEBHOOK_HMAC;
  const given = c.req.query("hmac");
  if (!secret || given === undefined || !(await hmacMatches(secret, given))) {
    log(c, "efi_webhook", { outcome: "rejected_hmac" }, "warn");
    return problem(c, 401, { type: "unauthorized", detail: "The hmac query parameter is missing or wrong." });
  }
  const sourceIp = c.req.header("cf-connecting-ip") ?? null;
  if (!ipAllowed(c.env.EFI_WEBHOOK_IPS, sourceIp)) {
    log(c, "efi_webhook", { outcome: "rejected_ip", source_ip: sourceIp }, "warn");
    return problem(c, 403, { type: "forbidden", detail: "This source address may not deliver Efí webhooks." });
  }
  const declaredBytes = Number(c.req.header("content-length") ?? "0");
  const rawBody = declaredBytes > efiWebhookBodyBytesMax ? null : new Uint8Array(await c.req.arrayBuffer());
  if (rawBody === null || rawBody.byteLength > efiWebhookBodyBytesMax) {
    log(c, "efi_webhook", { outcome: "rejected_too_large" }, "warn");
    return problem(c, 413, { type: "payload-too-large", detail: `Webhook bodies are at most ${efiWebhookBodyBytesMax} bytes.` });
  }
  const transferIds = transferIdsIn(rawBody);
  // The registration test (`{"evento":"teste_webhook"}`), an empty batch, or a shape we cannot
  // read: 200 all the same, or Efí would retry a hint for 36 days.
  if (transferIds.length === 0) {
    log(c, "efi_webhook", { outcome: "nothing_to_poke" });
    return c.json({ received: true }, 200);
  }
  // Still 200 if a poke fails: the saga checks on its own schedule and the sweeper catches it.
  pokeInBackground(c, transferIds, "efi_webhook");
  return c.json({ received: true }, 200);
}

/**
 * Registered without `&ignorar=` (`https://<host>/webhooks/efi?hmac=<secret>`), Efí appends
 * `/pix` to the whole URL, so the query's hmac arrives as `<secret>/pix`: exactly that one
 * suffix is accepted too, still compared in constant time.
 */
const efiAppendedSuffix = "/pix";

async function hmacMatches(secret: string, given: string): Promise<boolean> {
  if (await sameSecret(given, secret)) return true;
  return given.endsWith(efiAppendedSuffix) && sameSecret(given.slice(0, -efiAppendedSuffix.length), secret);
}

/** An empty EFI_WEBHOOK_IPS checks nothing (local only; production requires it, CONTRACT §1). */
function ipAllowed(allowList: string | undefined, sourceIp: string | null): boolean {
  const allowed = (allowList ?? "")
    .split(",")
    .map((ip) => ip.trim())
    .filter((ip) => ip !== "");
  if (allowed.length === 0) return true;
  return sourceIp !== null && allowed.includes(sourceIp.trim());
}

/** The distinct transfer ids named by the batch's items, as UUIDs (which name their saga objects). */
function transferIdsIn(rawBody: Uint8Array): string[] {
  let parsed: z.infer<typeof efiWebhookPayloadSchema>;
  try {
    const result = efiWebhookPayloadSchema.safeParse(JSON.parse(new TextDecoder().decode(rawBody)));
    if (!result.success) return [];
    parsed = result.data;
  } catch {
    return [];
  }
  const ids = new Set<string>();
  for (const item of parsed.pix) {
    const idEnvio = item.gnExtras?.idEnvio;
    if (idEnvio === undefined || !idEnvioPattern.test(idEnvio)) continue;
    ids.add(transferIdOf(idEnvio.toLowerCase()));
    if (ids.size >= efiWebhookPokesMax) break;
  }
  return [...ids];
}

function transferIdOf(idEnvio: string): string {
  return `${idEnvio.slice(0, 8)}-${idEnvio.slice(8, 12)}-${idEnvio.slice(12, 16)}-${idEnvio.slice(16, 20)}-${idEnvio.slice(20)}`;
}
