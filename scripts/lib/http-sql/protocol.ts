// The wire format of Neon's HTTP SQL endpoint, as @neondatabase/serverless 1.x speaks it
// (node_modules/@neondatabase/serverless/index.mjs, `neon()`): a POST whose JSON body is one
// `{query, params}` or a batch `{queries: [...]}`, the connection string in a header; the answer
// is one result (or `{results}`), rows as arrays of raw text that the client parses with its
// own type parsers, or a SQL error as HTTP 400 with PostgreSQL's error fields.
import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";

/** Bounds a request: the stand-in serves tests and benchmarks, not arbitrary clients. */
export const requestBytesMax = 1024 * 1024;
export const batchQueriesMax = 100;

const statement = z.object({
  query: z.string().min(1),
  // The client sends every parameter prepared: text (bytea as \x hex) or null.
  params: z.array(z.string().nullable()).max(65_535),
});
const body = z.union([z.object({ queries: z.array(statement).min(1).max(batchQueriesMax) }), statement]);

export type Statement = z.infer<typeof statement>;

export interface BatchOptions {
  isolationLevel: "ReadUncommitted" | "ReadCommitted" | "RepeatableRead" | "Serializable" | null;
  readOnly: boolean;
  deferrable: boolean;
}

export type SqlRequest =
  | { ok: true; connectionString: string; kind: "single"; statement: Statement }
  | { ok: true; connectionString: string; kind: "batch"; statements: Statement[]; options: BatchOptions }
  | { ok: false; message: string };

const isolationLevels = ["ReadUncommitted", "ReadCommitted", "RepeatableRead", "Serializable"] as const;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function parseSqlRequest(headers: IncomingHttpHeaders, raw: string): SqlRequest {
  const connectionString = header(headers, "Neon-Connection-String");
  if (connectionString === undefined) return { ok: false, message: "missing Neon-Connection-String header" };
  // The stand-in only answers the way the driver always asks (its rows are then raw text).
  if (header(headers, "Neon-Raw-Text-Output") !== "true" || header(headers, "Neon-Array-Mode") !== "true") {
    return { ok: false, message: "only Neon-Raw-Text-Output: true and Neon-Array-Mode: true are served" };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, message: "the body is not JSON" };
  }
  const parsed = body.safeParse(json);
  if (!parsed.success) return { ok: false, message: `malformed request: ${parsed.error.issues[0]?.message ?? "invalid"}` };
  if (!("queries" in parsed.data)) return { ok: true, connectionString, kind: "single", statement: parsed.data };
  const level = header(headers, "Neon-Batch-Isolation-Level");
  if (level !== undefined && !(isolationLevels as readonly string[]).includes(level)) {
    return { ok: false, message: `unknown Neon-Batch-Isolation-Level ${level}` };
  }
  return {
    ok: true,
    connectionString,
    kind: "batch",
    statements: parsed.data.queries,
    options: {
      isolationLevel: (level as BatchOptions["isolationLevel"] | undefined) ?? null,
      readOnly: header(headers, "Neon-Batch-Read-Only") === "true",
      deferrable: header(headers, "Neon-Batch-Deferrable") === "true",
    },
  };
}

/** BEGIN for a batch: the isolation level and access mode the headers asked for. */
export function beginStatement(options: BatchOptions): string {
  const level = options.isolationLevel?.replace(/([a-z])([A-Z])/g, "$1 $2").toUpperCase();
  return [
    "BEGIN",
    ...(level === undefined ? [] : [`ISOLATION LEVEL ${level}`]),
    options.readOnly ? "READ ONLY" : "READ WRITE",
    options.deferrable ? "DEFERRABLE" : "NOT DEFERRABLE",
  ].join(" ");
}

/** PostgreSQL's error fields, by the names the client copies onto its NeonDbError. */
export const errorFields = [
  "severity",
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const;
