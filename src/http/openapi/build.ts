// Small builders for the routes' descriptions in the OpenAPI document, so each reads as what
// its route answers rather than as nested JSON, and the parts several routes share.
import type { z } from "zod";
import { problemContentType } from "../../web/problem.ts";
import { idempotencyKeyLengthMax } from "../idempotency-key.ts";
import { transferRateLimit } from "../rate-limit.ts";
import { requestIdHeader } from "../request-id.ts";
import { type ComponentId, schemaRef } from "./component-ids.ts";
import type { Header, JsonSchema, Parameter, RequestBody, ResponseObject } from "./types.ts";
import { toJsonSchema } from "./zod-json.ts";

export const requestIdResponseHeader: Record<string, Header> = {
  [requestIdHeader]: {
    description: "This response's request id (yours, if you sent a sane one): quote it to support.",
    schema: { type: "string" },
  },
};

/** A JSON response whose body is the component `id`. */
export function jsonResponse(description: string, id: ComponentId, headers: Record<string, Header> = {}): ResponseObject {
  return { description, headers: { ...requestIdResponseHeader, ...headers }, content: { "application/json": { schema: schemaRef(id) } } };
}

/** An RFC 9457 problem response. */
export function problemResponse(description: string, headers: Record<string, Header> = {}): ResponseObject {
  return {
    description,
    headers: { ...requestIdResponseHeader, ...headers },
    content: { [problemContentType]: { schema: schemaRef("Problem") } },
  };
}

export function jsonRequestBody(id: ComponentId, description?: string): RequestBody {
  return {
    required: true,
    ...(description === undefined ? {} : { description }),
    content: { "application/json": { schema: schemaRef(id) } },
  };
}

export function pathParameter(name: string, description: string, schema: JsonSchema): Parameter {
  return { name, in: "path", required: true, description, schema };
}

/** One parameter per field of a route's zod query schema, with its constraints and default. */
export function queryParameters(query: z.ZodType, descriptions: Record<string, string>): Parameter[] {
  const json = toJsonSchema(query, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.has(name),
    description: descriptions[name] ?? "",
    schema,
  }));
}

export const idempotencyKeyParameter: Parameter = {
  name: "Idempotency-Key",
  in: "header",
  required: true,
  description:
    "Your id for this request, 1 to 255 printable ASCII characters, scoped to your account. Repeat it (with the same body) to retry safely.",
  schema: { type: "string", minLength: 1, maxLength: idempotencyKeyLengthMax, pattern: "^[\\x20-\\x7e]+$" },
};

export const retryAfterHeader: Record<string, Header> = {
  "Retry-After": { description: "Seconds to wait before trying again.", required: true, schema: { type: "integer", minimum: 1 } },
};

export const wwwAuthenticateHeader: Record<string, Header> = {
  "WWW-Authenticate": {
    description: 'Bearer challenge (RFC 6750); `error="invalid_token"` when a token was sent but refused.',
    required: true,
    schema: { type: "string" },
  },
};

export const idempotentReplayedHeader: Record<string, Header> = {
  "Idempotent-Replayed": {
    description: "`true` when this is the stored first response to an earlier request with the same key.",
    schema: { type: "string", enum: ["true"] },
  },
};

export const transferIdParameter: Parameter = pathParameter("id", "The transfer id.", { type: "string", format: "uuid" });

export const accountIdParameter: Parameter = pathParameter("id", "The account id: 1 to 64 of [A-Za-z0-9_-].", schemaRef("AccountId"));

export const invalidAccountIdResponse: ResponseObject = problemResponse(
  "The account id is not 1 to 64 of [A-Za-z0-9_-] (or, with a body, invalid fields).",
);

/** The transfer routes' rate limit (create, preview), as their descriptions tell it. */
export const transferRateText = `${transferRateLimit.limit} requests per ${transferRateLimit.periodSeconds} s per account`;
