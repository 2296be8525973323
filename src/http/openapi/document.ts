// The OpenAPI 3.1 document of the whole API: its paths generated from the routes the app serves
// (each route carries its own description, describe.ts), around them what no route says: the
// overview, the security schemes, the zod component schemas and the outbound events. What
// depends on the deployment (the transfer maximum, whether the sandbox exists) is read from its
// variables, so the document describes the API that serves it.
import type { Hono } from "hono";
import { generateSpecs } from "hono-openapi";
import { problemTypeBase } from "../../web/problem.ts";
import type { AppEnv } from "../app-env.ts";
import { maxBodyBytes } from "../body-limit.ts";
import { problemResponse } from "./build.ts";
import { componentSchemas } from "./components.ts";
import { eventWebhooks } from "./event-webhooks.ts";
import { opsWriteRefusals } from "./security.ts";
import type { HttpMethod, JsonSchema, OpenApiDocument, Operation, ResponseObject, SecurityScheme } from "./types.ts";

export const openApiVersion = "3.1.1";

const description = `Pix cash-out: mobile clients send Pix (instant transfers) from their balance; each transfer is a saga that holds the funds, sends the order to the payment provider and settles or releases the hold.

Money is always integer centavos (\`*_cents\`); times are RFC 3339 UTC.

**Errors** are \`application/problem+json\` (RFC 9457) everywhere: \`type\` (\`${problemTypeBase}<slug>\`), \`title\`, \`status\`, \`detail\`, \`errors\` (the invalid fields) on validation failures, and \`request_id\`. Never a 5xx for bad input; a rejected request writes nothing. Every response carries \`X-Request-Id\`.

**A misconfigured deployment fails closed**: while the production configuration is incomplete (no \`PROVIDER\`, a provider without its credentials, a URL that is not https, a short or example secret), every route but \`/healthz\` answers \`503\` with \`type\` \`${problemTypeBase}misconfigured\`, and nothing is sent or settled.

**Choices the contract leaves open**

- Unknown fields in JSON bodies are rejected (400), like Stripe; bodies are read as JSON whatever their Content-Type.
- Bodies over ${maxBodyBytes} bytes are refused with 413 before they are read.
- A known path with a method it does not support is 405 with \`Allow\`; an unknown path is 404.
- A transfer replay is matched on the normalised request: a CPF with or without punctuation is the same request.
- \`POST /v1/transfers\` is rate limited per account; past the limit, 429 with \`Retry-After\`.
- \`POST /ops/accounts/{id}/credits\` answers 200 with the balance, with \`Idempotent-Replayed: true\` on a repeat; the same key with another amount is 422. Above OPS_CREDIT_APPROVAL_ABOVE_CENTS it answers 202 \`pending_approval\` until another person approves it.
- Failed operator sign-ins are throttled per source IP (\`CF-Connecting-IP\`): 429 with \`Retry-After\`.
- \`GET /ops/transfers?state=…\` lists oldest first (a work queue); without \`state\`, newest first.
- The provider's send is rejected for good only on a 4xx other than 408/409/425/429; those, 5xx, timeouts and malformed or contradicting answers are unknown and checked later: a transfer is never compensated on an unknown outcome.`;

const securitySchemes: Record<string, SecurityScheme> = {
  clientJwt: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A JWT whose `sub` is the account id; `exp` required. The algorithm is pinned by configuration: HS256 with JWT_SECRET, or RS256/ES256 from JWT_JWKS_URL (then HS256 is off). `iss`/`aud` are checked when configured. With DEVICE_RULES on (production), a `device_id` claim (1 to 128 printable ASCII characters) names the device, and is required.",
  },
  accessJwt: {
    type: "apiKey",
    in: "header",
    name: "Cf-Access-Jwt-Assertion",
    description:
      "Operators as people: the Cloudflare Access assertion (RS256; `iss` is ACCESS_TEAM_DOMAIN, `aud` contains ACCESS_AUD). Its `email` is the actor recorded for every action. `Cf-Access-Authenticated-User-Email` is never read.",
  },
  opsToken: {
    type: "http",
    scheme: "bearer",
    description:
      "The operator token (OPS_TOKEN) for machines, compared in constant time; its actor is `ops-token`, which never approves a credit.",
  },
  webhookSignature: {
    type: "apiKey",
    in: "header",
    name: "webhook-signature",
    description:
      "Standard Webhooks: `webhook-id`, `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 with a WEBHOOK_SECRET, over the raw body), 300 s tolerance.",
  },
  eventsSignature: {
    type: "apiKey",
    in: "header",
    name: "webhook-signature",
    description:
      "Outbound events: Standard Webhooks headers signed with EVENTS_SECRET over the raw body; verify with any Standard Webhooks library (the README shows one).",
  },
  providerToken: { type: "http", scheme: "bearer", description: "The sandbox PSP's token (PROVIDER_TOKEN), checked only when set." },
  efiWebhookHmac: {
    type: "apiKey",
    in: "query",
    name: "hmac",
    description: "Efí webhooks: the secret EFI_WEBHOOK_HMAC carried in the registered URL (constant-time compare), plus EFI_WEBHOOK_IPS.",
  },
};

/** The project is private (package.json): no licence is granted, and SPDX has no id for that. */
const license = { name: "Proprietary: all rights reserved", identifier: "LicenseRef-Proprietary" };

/**
 * What the edge may answer on any operation, before its route runs: an operation documents its
 * own 400/404 when it has a more specific one, which then wins.
 */
const edgeResponses: Record<string, ResponseObject> = {
  "400": problemResponse("A control character in the path or the query string (`type` ends in `/validation-failed`). Nothing was written."),
  "404": problemResponse("Nothing at this path (`type` ends in `/not-found`)."),
  "405": problemResponse("The path exists, but not for this method (`type` ends in `/method-not-allowed`).", {
    Allow: { description: "The methods this path serves.", required: true, schema: { type: "string" } },
  }),
};

const tags = [
  { name: "transfers", description: "Send Pix and follow them (mobile clients)." },
  {
    name: "contestations",
    description: "Contest a Pix you were defrauded, scammed or coerced into (MED 2.0); the refund comes back as a return.",
  },
  { name: "recurring transfers", description: "Pix Agendado recorrente: weekly or monthly scheduled Pix (mobile clients)." },
  { name: "accounts", description: "The caller's account." },
  {
    name: "devices",
    description:
      "The devices registered for the caller's account: a transfer from any other is capped (the Central Bank's new-device rule).",
  },
  { name: "operators", description: "Operator tools: accounts, credits, the review queue, reconciliation." },
  { name: "webhooks", description: "Events from the payment provider." },
  { name: "events", description: "Events this API sends to the fintech's own backend (EVENTS_URL)." },
  { name: "sandbox", description: "The sandbox payment provider, local and test only." },
  { name: "meta", description: "Health and this reference." },
];

/** What the document depends on: whether /sandbox exists, and the largest amount one Pix may carry. */
export interface DocumentSettings {
  sandboxEnabled: boolean;
  maxTransferCents: number;
}

/**
 * `serverUrl` is the origin the document was fetched from: the document describes the
 * deployment that serves it (local, staging or production) without knowing their names.
 */
export async function openApiDocument(app: Hono<AppEnv>, settings: DocumentSettings, serverUrl: string): Promise<OpenApiDocument> {
  const paths: OpenApiDocument["paths"] = {};
  for (const [path, item] of Object.entries(await routePaths(app))) {
    for (const [method, operation] of Object.entries(item) as [HttpMethod, Operation][]) {
      if (operation["x-sandbox-only"] && !settings.sandboxEnabled) continue;
      const responses = { ...edgeResponses, ...opsWriteRefusals(path, method), ...operation.responses };
      paths[path] = { ...paths[path], [method]: { ...operation, responses } };
    }
  }
  const operations = Object.values(paths).flatMap((item) => Object.values(item));
  const schemas = componentSchemas();
  return {
    openapi: openApiVersion,
    info: { title: "Pix cash-out API", version: "1", description, license },
    servers: [{ url: serverUrl, description: "The deployment that served this document" }],
    tags: tags.filter((tag) => tag.name === "events" || operations.some((o) => o.tags.includes(tag.name))),
    paths,
    webhooks: eventWebhooks(),
    components: {
      schemas: {
        ...schemas,
        CreateTransferRequest: withAmountMaximum(schemas.CreateTransferRequest, settings.maxTransferCents),
      },
      securitySchemes,
    },
  };
}

/**
 * The described routes, by OpenAPI path (`/v1/transfers/{id}`) and method. Every operation is
 * one a route file wrote as an `Operation` (describe.ts), hence the cast; static-looking paths
 * (`/openapi.json`) are routes like any other here.
 */
async function routePaths(app: Hono<AppEnv>): Promise<OpenApiDocument["paths"]> {
  const generated = await generateSpecs(app, { excludeStaticFile: false, defaultValidationErrorResponse: false });
  return generated.paths as OpenApiDocument["paths"];
}

/** The zod schema cannot know MAX_TRANSFER_CENTS (a variable); the route checks it, and so says the document. */
function withAmountMaximum(schema: JsonSchema | undefined, maximumCents: number): JsonSchema {
  if (schema === undefined) throw new Error("openapi: CreateTransferRequest is missing from the components");
  const properties = schema.properties as Record<string, JsonSchema>;
  const said = properties.amount_cents?.description;
  const bound = `At most MAX_TRANSFER_CENTS (here ${maximumCents}).`;
  const amount = { ...properties.amount_cents, maximum: maximumCents, description: typeof said === "string" ? `${said}. ${bound}` : bound };
  return { ...schema, properties: { ...properties, amount_cents: amount } };
}
