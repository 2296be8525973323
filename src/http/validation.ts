// Validation at the edge: a failed zod parse or a body that is not JSON is a 400
// `validation-failed` problem with `errors: [{ field, message }]`, never a 500 (CONTRACT §2).
//
//   app.post("/v1/transfers", jsonBody(createTransferSchema), (c) => { const body = c.req.valid("json"); ... });
//   app.get("/v1/transfers", queryParams(listQuerySchema), (c) => { const q = c.req.valid("query"); ... });
//   zValidator("param", schema, validationHook)   // any other target, same problem shape
import { zValidator } from "@hono/zod-validator";
import type { Context, MiddlewareHandler } from "hono";
import type { BlankEnv } from "hono/types";
import type { z } from "zod";
import { type FieldError, problem } from "../web/problem.ts";
import { type JsonTextRules, jsonStringProblems } from "./text.ts";

/** A deeply wrong input can yield hundreds of issues; the client needs the first few. */
export const fieldErrorsMax = 20;

/** `["items", 0, "name"]` -> `"items.0.name"`; the input as a whole is `""`. */
export function fieldErrors(error: z.core.$ZodError): FieldError[] {
  return error.issues.slice(0, fieldErrorsMax).map((issue) => ({ field: issue.path.map(String).join("."), message: issue.message }));
}

export function validationProblem(c: Context, errors: readonly FieldError[], detail = "Some fields are invalid; see `errors`."): Response {
  return problem(c, 400, { type: "validation-failed", detail, errors });
}

/** The hook for `zValidator(target, schema, validationHook)`: failures become a 400 problem. */
export function validationHook(result: { success: true } | { success: false; error: z.core.$ZodError }, c: Context): Response | undefined {
  if (result.success) return undefined;
  return validationProblem(c, fieldErrors(result.error));
}

type JsonRead = { ok: true; value: unknown } | { ok: false; detail: string };

/** `application/json`, any parameters after it (`; charset=utf-8`), in any letter case. */
const jsonMediaType = /^application\/json\s*(?:;|$)/i;

/** Whether the request says its body is JSON. */
export function jsonLabelled(c: Context): boolean {
  return jsonMediaType.test(c.req.header("Content-Type") ?? "");
}

/**
 * Reads the body as JSON whatever its Content-Type: clients and tools often omit or mislabel it
 * (fetch sends text/plain for a string body), and the contract promises 400 for any bad body,
 * which a 415 or hono's "treat non-JSON as {}" would break. Parsing is all we ever do with it.
 * (/ops/* alone demands the JSON label, and reads an empty body as {}: ops-json-body.ts.)
 */
async function readJson(c: Context, emptyIsObject: boolean): Promise<JsonRead> {
  const text = await c.req.text();
  if (text.trim() === "" && emptyIsObject) return { ok: true, value: {} };
  if (text.trim() === "") return { ok: false, detail: "The request body is empty; a JSON object is expected." };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, detail: "The request body is not valid JSON." };
  }
}

type JsonInput<S extends z.ZodType> = { in: { json: z.input<S> }; out: { json: z.output<S> } };

/**
 * Parses and validates the JSON body; the route reads it with `c.req.valid("json")`. Control
 * characters are refused in every string first (`rules` names fields that may span lines).
 * `emptyIsObject`: a body whose every field is optional may be left out (read as `{}`).
 */
export function jsonBody<S extends z.ZodType>(
  schema: S,
  rules: JsonTextRules = {},
  emptyIsObject = false,
): MiddlewareHandler<BlankEnv, string, JsonInput<S>> {
  return async (c, next) => {
    const read = await readJson(c, emptyIsObject);
    if (!read.ok) return validationProblem(c, [{ field: "", message: read.detail }], read.detail);
    const textProblems = jsonStringProblems(read.value, rules);
    if (textProblems.length > 0) return validationProblem(c, textProblems.slice(0, fieldErrorsMax));
    const result = await schema.safeParseAsync(read.value);
    if (!result.success) return validationProblem(c, fieldErrors(result.error));
    c.req.addValidatedData("json", result.data as object);
    await next();
  };
}

/** Validates the query string; the route reads it with `c.req.valid("query")`. */
export function queryParams<S extends z.ZodType>(schema: S) {
  return zValidator("query", schema, validationHook);
}
