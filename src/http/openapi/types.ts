// The part of OpenAPI 3.1 this API's document uses: enough types that a typo in a field name
// fails the type check instead of producing a document no tool understands.

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect), as z.toJSONSchema produces it. */
export type JsonSchema = { [keyword: string]: unknown };

export type ParameterLocation = "path" | "query" | "header";

export interface Parameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  description: string;
  schema: JsonSchema;
}

export interface Header {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface MediaType {
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, Header>;
  content?: Record<string, MediaType>;
}

export interface RequestBody {
  /** false only where the whole body may be left out (every field optional). */
  required: boolean;
  description?: string;
  content: Record<string, MediaType>;
}

/** `[]`: no auth; otherwise the names of schemes in components.securitySchemes (any one of them). */
export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: SecurityRequirement[];
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, ResponseObject>;
  /** Present only while SANDBOX_PROVIDER=on; absent (404) in production. */
  "x-sandbox-only"?: true;
}

export type HttpMethod = "get" | "put" | "post" | "delete" | "patch";

/** An operation with where it lives: the document groups them into `paths`. */
export interface RoutedOperation {
  method: HttpMethod;
  /** OpenAPI template, e.g. `/v1/transfers/{id}`. */
  path: string;
  operation: Operation;
}

export interface SecurityScheme {
  type: "http" | "apiKey";
  description: string;
  scheme?: string;
  bearerFormat?: string;
  name?: string;
  in?: "header" | "query";
}

export interface Tag {
  name: string;
  description: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string; description: string }[];
  tags: Tag[];
  paths: Record<string, Partial<Record<HttpMethod, Operation>>>;
  /** Requests this API sends (OpenAPI 3.1): outbound events, by type. */
  webhooks: Record<string, Partial<Record<HttpMethod, Operation>>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, SecurityScheme> };
}
