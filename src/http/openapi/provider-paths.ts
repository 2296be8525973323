// What the provider calls (CONTRACT §3: webhooks) and, when SANDBOX_PROVIDER=on, the sandbox
// provider's own API (CONTRACT §4).
import { jsonBody, jsonResponse, pathParameter, problemResponse } from "./build.ts";
import { schemaRef } from "./components.ts";
import type { Operation, Parameter, ResponseObject, RoutedOperation, SecurityRequirement } from "./types.ts";

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

export function webhookOperations(): RoutedOperation[] {
  return [
    {
      method: "post",
      path: "/webhooks/provider",
      operation: {
        operationId: "providerWebhook",
        summary: "Provider event",
        description:
          "Verified over the exact raw bytes (Standard Webhooks). A valid one is `202` whatever it says: it never changes a transfer by its content, it only makes that transfer's saga ask the provider for the status now. Duplicates are harmless.",
        tags: ["webhooks"],
        security: [{ webhookSignature: [] }],
        parameters: webhookHeaders,
        requestBody: jsonBody("WebhookEvent"),
        responses: {
          "202": jsonResponse("Received.", "WebhookAck"),
          "401": problemResponse("Missing or bad signature, or a stale timestamp; nothing happened."),
          "413": problemResponse("The body is over 16 KiB."),
        },
      },
    },
    ...["/webhooks/efi", "/webhooks/efi/pix"].map((path) => efiWebhookOperation(path)),
  ];
}

/** CONTRACT §3b: Efí posts to the registered URL plus `/pix` (unless it ends in `?ignorar=`). */
function efiWebhookOperation(path: string): RoutedOperation {
  return {
    method: "post",
    path,
    operation: {
      operationId: path.endsWith("/pix") ? "efiWebhookPix" : "efiWebhook",
      summary: path.endsWith("/pix") ? "Efí Pix delivery (registered URL + /pix)" : "Efí delivery (registered URL)",
      description:
        'Efí\'s webhook (`PROVIDER=efi`), registered with `x-skip-mtls-checking: true`. The `hmac` query parameter must equal `EFI_WEBHOOK_HMAC` (constant-time compare; with the `/pix` Efí appends to a URL registered without `&ignorar=`, too) and `CF-Connecting-IP` must be in `EFI_WEBHOOK_IPS` when that is set. Each item whose `gnExtras.idEnvio` names one of our transfers makes that saga ask Efí for the status now; the content decides nothing. Efí\'s registration test `{"evento":"teste_webhook"}` is `200`.',
      tags: ["webhooks"],
      security: [{ efiWebhookHmac: [] }],
      parameters: [
        { name: "ignorar", in: "query", required: false, description: "Efí's marker: no `/pix` is appended.", schema: { type: "string" } },
      ],
      requestBody: jsonBody("EfiWebhookDelivery"),
      responses: {
        "200": jsonResponse("Received.", "WebhookAck"),
        "401": problemResponse("Missing or wrong hmac; nothing happened."),
        "403": problemResponse("Source address outside EFI_WEBHOOK_IPS; nothing happened."),
        "413": problemResponse("The body is over 16 KiB."),
      },
    },
  };
}

const sandboxNote = "Sandbox only: present when `SANDBOX_PROVIDER=on`; otherwise every /sandbox path is `404`.";
const paymentKey = pathParameter("idempotency_key", "The payment's idempotency key (our transfer id).", { type: "string" });

export function pspResponse(description: string): ResponseObject {
  return { description, content: { "application/json": { schema: schemaRef("ProviderAnswer") } } };
}

export function sandboxOperation(operation: Omit<Operation, "tags" | "x-sandbox-only">): Operation {
  return { ...operation, description: `${operation.description}\n\n${sandboxNote}`, tags: ["sandbox"], "x-sandbox-only": true };
}

export function sandboxOperations(): RoutedOperation[] {
  // `{}`: no token needed when PROVIDER_TOKEN is unset.
  const providerSecurity: SecurityRequirement[] = [{ providerToken: [] }, {}];
  return [
    {
      method: "put",
      path: "/sandbox/provider/pix/{idempotency_key}",
      operation: sandboxOperation({
        operationId: "sandboxSend",
        summary: "PSP: send a Pix (idempotent PUT)",
        description:
          "The PSP API the saga's HTTP adapter speaks. The Pix key chooses the behaviour (CONTRACT §4's table); any other valid key is accepted and confirmed after `SANDBOX_CONFIRM_MS`. Checks `Authorization: Bearer <PROVIDER_TOKEN>` only when that is set.",
        security: providerSecurity,
        parameters: [paymentKey],
        requestBody: jsonBody("ProviderSendRequest"),
        responses: {
          "201": pspResponse("Accepted (first time)."),
          "200": pspResponse("Accepted (a repeat: the same answer)."),
          "4XX": pspResponse("Rejected for good: `{ code }` (408, 409, 425 and 429 are not rejections)."),
          "5XX": pspResponse("Unknown outcome: `{ code }`."),
        },
      }),
    },
    {
      method: "get",
      path: "/sandbox/provider/pix/{idempotency_key}",
      operation: sandboxOperation({
        operationId: "sandboxStatus",
        summary: "PSP: status of a Pix",
        description: "`processing`, `confirmed` or `rejected`; `404` when the PSP never made it.",
        security: providerSecurity,
        parameters: [paymentKey],
        responses: {
          "200": pspResponse("The payment's status."),
          "404": pspResponse("Not found: `{ code: not_found }`."),
          "5XX": pspResponse("Unavailable: check again."),
        },
      }),
    },
    {
      method: "get",
      path: "/sandbox/provider/pix",
      operation: sandboxOperation({
        operationId: "sandboxStatement",
        summary: "PSP: the statement for a window, paged",
        description:
          "Every payment whose send was received in `[from, to)` (RFC 3339, at most 24 hours apart), as its status answer says now (returns included), oldest first, 100 per page: `{ data, next_cursor }`. Ask again with `&cursor=<next_cursor>` until it is null. Efí's dialect serves the same under `/sandbox/efi/v2/gn/pix/enviados?inicio=&fim=&paginacao.paginaAtual=`.",
        security: providerSecurity,
        parameters: [
          { name: "from", in: "query", required: true, description: "RFC 3339.", schema: { type: "string", format: "date-time" } },
          {
            name: "to",
            in: "query",
            required: true,
            description: "RFC 3339, at most 24 hours after `from`.",
            schema: { type: "string", format: "date-time" },
          },
          { name: "cursor", in: "query", required: false, description: "The previous page's `next_cursor`.", schema: { type: "string" } },
        ],
        responses: {
          "200": pspResponse(
            "A page of the statement: `{ data: [ { idempotency_key, status, amount_cents, end_to_end_id, returns? } ], next_cursor }`.",
          ),
          "400": pspResponse("A missing or bad window: `{ code: invalid_request }`."),
          "5XX": pspResponse("Unavailable: ask again."),
        },
      }),
    },
    {
      method: "post",
      path: "/sandbox/provider/br-codes/resolve",
      operation: sandboxOperation({
        operationId: "sandboxResolveBrCode",
        summary: "PSP: resolve a dynamic BR Code",
        description:
          "`{ br_code }` → the fields of `POST /v1/br-codes/preview`, resolved from the code alone: the payload URL's last path segment may name a Pix key (a magic key keeps its behaviour), `expired` is refused (`422 { code: expired }`), `unavailable` answers 503; any other URL resolves to a random key derived from it. The amount, merchant and txid are the code's own. `PUT /sandbox/provider/pix/{idempotency_key}` with `br_code` instead of the key fields pays it (`422 amount_mismatch` for another amount).",
        security: providerSecurity,
        requestBody: jsonBody("ProviderResolveRequest"),
        responses: {
          "200": pspResponse("What the code asks for."),
          "4XX": pspResponse("Refused: `{ code }` (`invalid_br_code`, `not_dynamic`, `expired`)."),
          "5XX": pspResponse("Unavailable: ask again."),
        },
      }),
    },
    {
      method: "post",
      path: "/sandbox/provider/outage",
      operation: sandboxOperation({
        operationId: "sandboxOutage",
        summary: "Fault drill: take the PSP API down for a while",
        description: "Not part of a real PSP: its `/provider/pix` API answers `503 { code: unavailable }` until the outage ends.",
        security: [],
        requestBody: jsonBody("SandboxOutageRequest"),
        responses: {
          "200": jsonResponse("When the outage ends.", "SandboxOutage"),
          "400": pspResponse("Invalid body: `{ code: invalid_request }`."),
        },
      }),
    },
    {
      method: "get",
      path: "/sandbox/provider/payments",
      operation: sandboxOperation({
        operationId: "sandboxPayments",
        summary: "Everything the sandbox holds",
        description: "For tests and demos: each payment with its call counts and whether money left.",
        security: [],
        responses: { "200": jsonResponse("The payments.", "SandboxPaymentList") },
      }),
    },
    {
      method: "get",
      path: "/sandbox/provider/payments/{idempotency_key}",
      operation: sandboxOperation({
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
    },
  ];
}
