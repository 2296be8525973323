// The client API's operations (CONTRACT §2) and the public ones (health, this document).
import { transferRateLimit } from "../rate-limit.ts";
import { listTransfersQuery } from "../transfers.ts";
import {
  idempotencyKeyParameter,
  idempotentReplayedHeader,
  jsonBody,
  jsonResponse,
  pathParameter,
  problemResponse,
  queryParameters,
  requestIdResponseHeader,
  retryAfterHeader,
  wwwAuthenticateHeader,
} from "./build.ts";
import type { ResponseObject, RoutedOperation } from "./types.ts";

export const clientSecurity = [{ clientJwt: [] }];

/** What every authenticated /v1 operation may answer besides its own outcomes. */
export const clientAuthResponses: Record<string, ResponseObject> = {
  "401": problemResponse(
    "Missing, malformed, expired or wrongly signed token (`alg` is pinned; `none` is refused).",
    wwwAuthenticateHeader,
  ),
  "403": problemResponse("The token is valid but its account (`sub`) does not exist."),
  "503": problemResponse("The token's signing keys (JWKS) cannot be fetched right now; retry later.", retryAfterHeader),
};

export function clientOperations(): RoutedOperation[] {
  const rate = `${transferRateLimit.limit} requests per ${transferRateLimit.periodSeconds} s per account`;
  return [
    {
      method: "post",
      path: "/v1/transfers",
      operation: {
        operationId: "createTransfer",
        summary: "Send a Pix",
        description: [
          "Creates the transfer and attempts the hold on your balance, then answers `202` with the transfer: already `funds_reserved` or later, or `compensated` with `failure_reason: insufficient_funds` (or `limit_exceeded`). The saga carries on in the background; poll `GET /v1/transfers/{id}`.",
          "**Scheduled** (`scheduled_for`, a São Paulo date after today, at most 365 days ahead): answers `202` in `scheduled` with nothing held and no rule checked. It runs in the early hours (00:00 to 06:00) of that day, checked against the daytime limits; if too little is available then, once more between 18:00 and 21:00, then it ends `compensated` with `insufficient_funds`. Until it runs, `POST /v1/transfers/{id}/cancel` cancels it.",
          "Pix keys are validated and stored normalised: CPF and CNPJ without punctuation (both accepted), email and EVP lowercased, phone in E.164. Unknown fields are rejected (400).",
          "**Pix Copia e Cola**: instead of `pix_key` and `pix_key_type`, send `br_code`. A static code names the key (its type inferred) and may carry the amount: omit `amount_cents` or give the same; a code without one needs `amount_cents`. A dynamic code (a payload URL) is resolved by the provider first and paid as the code, for the amount it resolved to. A malformed code or a wrong CRC is `400` `/invalid-br-code` (`errors` name the EMV field); a dynamic code the provider refuses (expired, paid) is `422` `/br-code-unresolvable`; a provider that cannot answer now, `503` with `Retry-After`. None of them writes anything. See also `POST /v1/br-codes/preview`.",
          "**Idempotency**: the same `Idempotency-Key` with the same request returns the first response (same status, byte-identical body) with `Idempotent-Replayed: true`. Requests are compared after normalisation, so a CPF with or without punctuation is the same request. The same key with a different request is `422`. Concurrent requests with one key create one transfer: the later ones wait for the first and get its replay. Keys are scoped to your account.",
          `**Rate limit**: ${rate}; every attempt counts, replays and rejected ones included. Past it: \`429\` with \`Retry-After\`.`,
        ].join("\n\n"),
        tags: ["transfers"],
        security: clientSecurity,
        parameters: [idempotencyKeyParameter],
        requestBody: jsonBody("CreateTransferRequest"),
        responses: {
          "202": jsonResponse(
            "The transfer, once the hold was attempted (or the replay of the first response).",
            "Transfer",
            idempotentReplayedHeader,
          ),
          "400": problemResponse(
            "Missing or invalid `Idempotency-Key`, malformed JSON, or invalid fields (see `errors`). Nothing was written.",
          ),
          ...clientAuthResponses,
          "413": problemResponse("The body is over 16 KiB."),
          "422": problemResponse(
            "This `Idempotency-Key` was used with a different request (`type` ends in `/idempotency-key-reused`), or the provider refused a dynamic BR Code (`/br-code-unresolvable`).",
          ),
          "429": problemResponse("Too many transfer requests for this account (`type` ends in `/rate-limited`).", retryAfterHeader),
          "503": problemResponse(
            "The transfer could not be confirmed (or the token's signing keys cannot be fetched): retry after `Retry-After` with the same `Idempotency-Key`, which tells whether it was created.",
            retryAfterHeader,
          ),
        },
      },
    },
    {
      method: "get",
      path: "/v1/transfers",
      operation: {
        operationId: "listTransfers",
        summary: "List your transfers",
        description: "Your transfers, newest first, one page at a time: follow `next_cursor` until it is null.",
        tags: ["transfers"],
        security: clientSecurity,
        parameters: queryParameters(listTransfersQuery, {
          limit: "Page size, 1 to 100.",
          cursor: "`next_cursor` of the previous page; omit for the first page.",
        }),
        responses: {
          "200": jsonResponse("One page of transfers.", "TransferPage"),
          "400": problemResponse("`limit` out of range, an unknown query parameter, or a cursor this API did not give."),
          ...clientAuthResponses,
        },
      },
    },
    {
      method: "get",
      path: "/v1/transfers/{id}",
      operation: {
        operationId: "getTransfer",
        summary: "Get one of your transfers",
        description: "The transfer with its whole history. Another account's transfer is indistinguishable from none: `404`.",
        tags: ["transfers"],
        security: clientSecurity,
        parameters: [pathParameter("id", "The transfer id.", { type: "string", format: "uuid" })],
        responses: {
          "200": jsonResponse("The transfer.", "Transfer"),
          ...clientAuthResponses,
          "404": problemResponse("No transfer of yours with this id."),
        },
      },
    },
    {
      method: "post",
      path: "/v1/transfers/{id}/cancel",
      operation: {
        operationId: "cancelTransfer",
        summary: "Cancel one of your scheduled transfers",
        description:
          "Ends a transfer still `scheduled` (created with `scheduled_for`, its day not yet come) in `canceled`: nothing was held, so nothing moves. Any other state, `canceled` included, is `409`: once its day came the saga runs like every other transfer.",
        tags: ["transfers"],
        security: clientSecurity,
        parameters: [pathParameter("id", "The transfer id.", { type: "string", format: "uuid" })],
        responses: {
          "200": jsonResponse("The transfer, now `canceled`.", "Transfer"),
          ...clientAuthResponses,
          "404": problemResponse("No transfer of yours with this id."),
          "409": problemResponse("The transfer is not `scheduled` (it ran, or was canceled already): nothing was changed."),
          "503": problemResponse(
            "The cancel could not be confirmed (or the token's signing keys cannot be fetched): retry after `Retry-After`; a repeat answers `409` once it was canceled.",
            retryAfterHeader,
          ),
        },
      },
    },
    {
      method: "get",
      path: "/v1/transfers/{id}/events",
      operation: {
        operationId: "streamTransfer",
        summary: "Follow one of your transfers live",
        description: [
          "A `text/event-stream` (server-sent events): first the transfer as it is now, then one `event: transfer.updated` per change, within a second of it, with `data` the transfer resource and `id` the change's sequence.",
          "The stream ends after a terminal state (`completed`, `compensated`, `canceled`), and after at most 5 minutes otherwise: reconnect with `Last-Event-ID` (the last `id` seen) to get every change since, without a gap (EventSource does this by itself).",
        ].join(" "),
        tags: ["transfers"],
        security: clientSecurity,
        parameters: [
          pathParameter("id", "The transfer id.", { type: "string", format: "uuid" }),
          {
            name: "Last-Event-ID",
            in: "header",
            required: false,
            description: "Resume after this change: the `id` of the last message received.",
            schema: { type: "string", pattern: "^[0-9]{1,9}$" },
          },
        ],
        responses: {
          "200": {
            description: "The stream. Each message: `id: <sequence>`, `event: transfer.updated`, `data: <the transfer as JSON>`.",
            headers: requestIdResponseHeader,
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
          "400": problemResponse(
            "`Last-Event-ID` is not the id of a message this stream sends: not a sequence number, or above the transfer's latest.",
          ),
          ...clientAuthResponses,
          "404": problemResponse("No transfer of yours with this id."),
          "503": problemResponse("The stream could not be opened now; try again.", retryAfterHeader),
        },
      },
    },
    {
      method: "post",
      path: "/v1/br-codes/preview",
      operation: {
        operationId: "previewBrCode",
        summary: "Read a Pix Copia e Cola before paying it",
        description: [
          "What a BR Code asks for: the key, the amount (null when the payer chooses), the merchant and the txid. A static code is read as it is; a dynamic code (a payload URL) is resolved by the provider, and its answer is shown. Nothing is written.",
          `**Rate limit**: ${rate}, a budget of its own. Past it: \`429\` with \`Retry-After\`.`,
        ].join("\n\n"),
        tags: ["transfers"],
        security: clientSecurity,
        requestBody: jsonBody("PreviewBrCodeRequest"),
        responses: {
          "200": jsonResponse("What the code asks for.", "BrCodePreview"),
          "400": problemResponse("A malformed code or a wrong CRC (`/invalid-br-code`, `errors` name the EMV field), or an invalid body."),
          ...clientAuthResponses,
          "422": problemResponse("The provider refused this dynamic code: expired, paid or unknown (`/br-code-unresolvable`)."),
          "429": problemResponse("Too many previews for this account (`type` ends in `/rate-limited`).", retryAfterHeader),
          "503": problemResponse(
            "The provider could not resolve the code now (or the token's signing keys cannot be fetched): retry after `Retry-After`.",
            retryAfterHeader,
          ),
        },
      },
    },
    {
      method: "get",
      path: "/v1/balance",
      operation: {
        operationId: "getBalance",
        summary: "Your balance",
        description: "`available_cents` is what a new transfer can use: the balance less what transfers in flight hold.",
        tags: ["accounts"],
        security: clientSecurity,
        responses: { "200": jsonResponse("The balance.", "Balance"), ...clientAuthResponses },
      },
    },
    {
      method: "get",
      path: "/v1/limits",
      operation: {
        operationId: "getLimits",
        summary: "Your Pix limits",
        description:
          "Your limits (per transfer, daily, at night per transfer and per night window, with the window) and what is left of today's (São Paulo day) and of tonight's, plus increases not yet in force (`pending`). A transfer over a limit is answered `202` and ends `compensated` with `failure_reason: limit_exceeded` and the rule in `failure_code`.",
        tags: ["accounts"],
        security: clientSecurity,
        responses: { "200": jsonResponse("The limits.", "Limits"), ...clientAuthResponses },
      },
    },
    {
      method: "get",
      path: "/healthz",
      operation: {
        operationId: "health",
        summary: "Health",
        description:
          "`200` when the configuration is complete and the database answers, else `503`. The database's answer is kept for 5 seconds per isolate, so probes do not open a connection each. A `503` of type `misconfigured` lists the variables that are missing or wrong in `errors` (names, never values).",
        tags: ["meta"],
        security: [],
        responses: {
          "200": jsonResponse("The Worker and its database answer.", "Health"),
          "503": problemResponse("The database does not answer (`unavailable`), or the configuration is incomplete (`misconfigured`)."),
        },
      },
    },
    {
      method: "get",
      path: "/openapi.json",
      operation: {
        operationId: "openApiDocument",
        summary: "This document",
        description: "OpenAPI 3.1, generated from the schemas the routes validate with.",
        tags: ["meta"],
        security: [],
        responses: {
          "200": {
            description: "The OpenAPI document.",
            headers: requestIdResponseHeader,
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
    },
    {
      method: "get",
      path: "/docs",
      operation: {
        operationId: "apiReference",
        summary: "API reference",
        description: "This document rendered as one HTML page.",
        tags: ["meta"],
        security: [],
        responses: {
          "200": {
            description: "The reference.",
            headers: requestIdResponseHeader,
            content: { "text/html": { schema: { type: "string" } } },
          },
        },
      },
    },
  ];
}
