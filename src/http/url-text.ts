// Control characters in the URL (a path segment or a query parameter, once percent-decoded)
// are bad input on every route: 400 before any route reads them (CONTRACT §2).
import type { MiddlewareHandler } from "hono";
import { controlProblem } from "../lib/text.ts";
import type { FieldError } from "../web/problem.ts";
import { validationProblem } from "./validation.ts";

/** A malformed escape is not ours to judge here: the router answers it as an unknown path. */
function decoded(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

export function urlTextProblems(url: URL): FieldError[] {
  const problems: FieldError[] = [];
  for (const segment of url.pathname.split("/")) {
    const text = decoded(segment);
    const message = text === null ? null : controlProblem(text);
    if (message) problems.push({ field: "path", message });
  }
  for (const [name, value] of url.searchParams) {
    const message = controlProblem(name) ?? controlProblem(value);
    if (message) problems.push({ field: controlProblem(name) ? "query" : name, message });
  }
  return problems;
}

export function refuseControlCharactersInUrl(): MiddlewareHandler {
  return async (c, next) => {
    const problems = urlTextProblems(new URL(c.req.url));
    if (problems.length > 0) return validationProblem(c, problems, "The URL contains control characters; see `errors`.");
    await next();
  };
}
