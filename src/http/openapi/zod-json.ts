// zod -> JSON Schema for the OpenAPI document (z.toJSONSchema), tidied for OpenAPI 3.1.
import { z } from "zod";
import type { JsonSchema } from "./types.ts";

export type SchemaDirection = "input" | "output";

/** One schema, inline: `input` as a client writes it (before defaults), `output` as we answer. */
export function toJsonSchema(schema: z.ZodType, io: SchemaDirection): JsonSchema {
  return tidy(z.toJSONSchema(schema, { io }));
}

/** Many schemas as named components; a schema used inside another becomes a `$ref` to it. */
export function toComponents(schemas: Record<string, z.ZodType>, io: SchemaDirection): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: json } = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(Object.entries(json).map(([id, schema]) => [id, tidy(schema)]));
}

/**
 * OpenAPI 3.1 schemas need neither `$schema` nor `$id` (and a fragment `$id` is not allowed in
 * 2020-12); where a `format` says what a string is, zod's long regex says it again, less
 * readably, so it goes.
 */
function tidy(value: unknown): JsonSchema {
  return tidyValue(value) as JsonSchema;
}

function tidyValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidyValue);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).filter(([key]) => key !== "$schema" && key !== "$id");
  const hasFormat = entries.some(([key]) => key === "format");
  return Object.fromEntries(entries.filter(([key]) => !(hasFormat && key === "pattern")).map(([key, inner]) => [key, tidyValue(inner)]));
}
