// Account data (balances, transfers, limits, operator views) must never sit in a shared cache
// or a browser's history: every answer under /v1 and /ops says `Cache-Control: no-store`,
// errors included, since a problem can name an account too.
import type { MiddlewareHandler } from "hono";

export function noStore(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.res.headers.set("Cache-Control", "no-store");
  };
}
