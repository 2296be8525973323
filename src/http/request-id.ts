// Request ids: every response carries `X-Request-Id`, and every log line of a request names it
// (src/lib/log.ts), so a client's report can be matched to our logs.
//
//   app.use(requestId());                        // first middleware, before everything else
//   c.get("requestId")                           // string, with Variables: RequestIdVariables
import type { MiddlewareHandler } from "hono";
import { requestId as honoRequestId, type RequestIdVariables } from "hono/request-id";

export type { RequestIdVariables };

export const requestIdHeader = "X-Request-Id";
/** A client-chosen id longer than this, or with other characters, is replaced: it ends up in our logs. */
export const requestIdLengthMax = 64;

/**
 * hono's requestId reuses a sane incoming id (1 to 64 of [A-Za-z0-9_=-], so a gateway's id
 * follows the request), else makes a UUID, and sets the header on what `c` builds.
 */
const chooseRequestId = honoRequestId({ headerName: requestIdHeader, limitLength: requestIdLengthMax });

export function requestId(): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return (c, next) =>
    chooseRequestId(c, async () => {
      await next();
      // Again after: hono's sets it only before next(), which a bare `new Response(...)` (the
      // transfer's event stream) does not carry.
      const id = c.get("requestId");
      if (c.res.headers.get(requestIdHeader) !== id) {
        c.res = new Response(c.res.body, c.res);
        c.res.headers.set(requestIdHeader, id);
      }
    });
}
