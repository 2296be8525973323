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
    await emptyBodyAsObject(c);
    return next();
  };
}

/**
 * An empty body labelled JSON is `{}`, so `curl -X POST -H 'content-type: application/json'
 * …/approve` reads as the route's empty object. Read from a copy: the route still reads the
 * original, which limitBody has already bounded. An empty chunked body (no Content-Length) is
 * empty too.
 */
async function emptyBodyAsObject(c: Context): Promise<void> {
  const raw = c.req.raw;
  if (raw.body !== null && (await raw.clone().text()).trim() !== "") return;
  const headers = new Headers(raw.headers);
  headers.delete("Content-Length");
  headers.delete("Transfer-Encoding");
  c.req.raw = new Request(raw, { headers, body: "{}" });
}
