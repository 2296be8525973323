// Operator writes take JSON only (CONTRACT §5: 415 otherwise, and an empty body is `{}`). A page
// of another site can send a body without a CORS preflight only as a form or text/plain, never
// as application/json, so the label is the second guard after auth/ops-same-origin.ts. It runs
// after opsAuth: an unauthenticated write is a failed sign-in (401, throttled per IP) whatever
// its body says, so a label cannot dodge the throttle nor tell a stranger what a route takes.
//
//   app.use("/ops/*", opsSameOrigin());
//   app.use("/ops/*", opsAuth());
//   app.use("/ops/*", opsJsonBody());
import type { Context, MiddlewareHandler } from "hono";
import { problem } from "../web/problem.ts";
import { opsWriteMethods } from "./auth/ops-same-origin.ts";
import { jsonLabelled } from "./validation.ts";

export function opsJsonBody(): MiddlewareHandler {
  return async (c, next) => {
    if (!opsWriteMethods.has(c.req.method)) return next();
    if (!jsonLabelled(c)) {
      return problem(c, 415, {
        type: "unsupported-media-type",
        detail: "Operator writes take Content-Type: application/json (an empty body is {}).",
      });
    }
    emptyBodyAsObject(c);
    return next();
  };
}

/**
 * An empty body labelled JSON is `{}` (CONTRACT §5), so `curl -X POST -H 'content-type:
 * application/json' …/approve` reads as the route's empty object. Decided from the headers,
 * before anything reads the body: no body at all, or a declared length of 0.
 */
function emptyBodyAsObject(c: Context): void {
  const raw = c.req.raw;
  if (raw.body !== null && c.req.header("Content-Length") !== "0") return;
  const headers = new Headers(raw.headers);
  headers.delete("Content-Length");
  c.req.raw = new Request(raw, { headers, body: "{}" });
}
