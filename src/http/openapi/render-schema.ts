// JSON Schemas as a reader wants them in the reference: a one-line type ("string | null",
// "array of Transfer") with its constraints, and an object as a table of its fields.
import { escapeHtml as esc, markdown } from "./markdown.ts";
import type { JsonSchema } from "./types.ts";

const refPrefix = "#/components/schemas/";

/** The type of `schema` as inline HTML, components linked. */
export function schemaType(schema: JsonSchema): string {
  if (typeof schema.$ref === "string") {
    const id = schema.$ref.startsWith(refPrefix) ? schema.$ref.slice(refPrefix.length) : schema.$ref;
    return `<a href="#schema-${esc(id)}">${esc(id)}</a>`;
  }
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => `<code>${esc(JSON.stringify(value))}</code>`).join(" | ");
  if ("const" in schema) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(schemaType).join(" | ");
  if (Array.isArray(schema.type)) return schema.type.map((type) => esc(String(type))).join(" | ");
  if (schema.type === "array") return `array of ${schemaType((schema.items as JsonSchema | undefined) ?? {})}`;
  if (typeof schema.type === "string") return esc(typeof schema.format === "string" ? `${schema.type} (${schema.format})` : schema.type);
  return "any";
}

/** Constraints worth telling a client: bounds, lengths, patterns, defaults. */
export function schemaConstraints(schema: JsonSchema): string {
  const parts: string[] = [];
  const bound = (keyword: string, label: string) => {
    const value = schema[keyword];
    if (typeof value === "number" && Math.abs(value) < Number.MAX_SAFE_INTEGER) parts.push(`${label} ${value}`);
  };
  bound("minimum", "≥");
  bound("exclusiveMinimum", ">");
  bound("maximum", "≤");
  bound("minLength", "length ≥");
  bound("maxLength", "length ≤");
  bound("minItems", "items ≥");
  bound("maxItems", "items ≤");
  if (typeof schema.pattern === "string") parts.push(`pattern <code>${esc(schema.pattern)}</code>`);
  if ("default" in schema) parts.push(`default <code>${esc(JSON.stringify(schema.default))}</code>`);
  if (schema.additionalProperties === false) parts.push("no other fields");
  for (const option of Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : []) {
    const inner = schemaConstraints(option);
    if (inner !== "") parts.push(inner);
  }
  return parts.join(", ");
}

export function schemaSummary(schema: JsonSchema): string {
  const constraints = schemaConstraints(schema);
  return constraints === "" ? schemaType(schema) : `${schemaType(schema)} <span class="muted">(${constraints})</span>`;
}

/** A component: its description, then its fields (objects) or its type (anything else). */
export function schemaTable(schema: JsonSchema): string {
  const description = typeof schema.description === "string" ? markdown(schema.description) : "";
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type !== "object" || properties === undefined) return `${description}<p>${schemaSummary(schema)}</p>`;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const rows = Object.entries(properties)
    .map(([name, field]) => {
      const note = typeof field.description === "string" ? markdown(field.description) : "";
      const flag = required.has(name) ? ' <span class="req">required</span>' : "";
      return `<tr><td><code>${esc(name)}</code>${flag}</td><td>${schemaSummary(field)}</td><td>${note}</td></tr>`;
    })
    .join("");
  const closed = schema.additionalProperties === false ? '<p class="muted">No other fields.</p>' : "";
  return `${description}<table><thead><tr><th>field</th><th>type</th><th>description</th></tr></thead><tbody>${rows}</tbody></table>${closed}`;
}
