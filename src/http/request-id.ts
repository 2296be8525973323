// Request ids: every response carries `X-Request-Id`, and every log line of a request names it
// (src/lib/log.ts), so a client's report can be matched to our logs.
//
//   app.use(requestId());                        // first middleware, before everything else
//   c.get("requestId")                           // string, with Variables: RequestIdVariables
import type { MiddlewareHandler } from "hono";

export type RequestIdVariables = { requestId: string };

export const requestIdHeader = "X-Request-Id";
/** A client-chosen id longer than this, or with other characters, is replaced: it ends up in our logs. */
export const requestIdLengthMax = 64;
const saneRequestId = new RegExp(`^[A-Za-z0-9_-]{1,${requestIdLengthMax}}$`);

/** Reuses a sane incoming `X-Request-Id` (so a gateway's id follows the request), else a new UUID. */
export function requestId(): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return async (c, next) => {
    const incoming = c.req.header(requestIdHeader);
    const id = incoming !== undefined && saneRequestId.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", id);
    // Set before next() so responses built through `c` (including onError's) carry it...
    c.header(requestIdHeader, id);
    await next();
    // ...and again after, for handlers that returned a bare `new Response(...)`.
    if (c.res.headers.get(requestIdHeader) !== id) {
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set(requestIdHeader, id);
    }
  };
}
