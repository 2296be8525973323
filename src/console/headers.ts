// Response headers for every console response. The console needs no script at all, so the CSP
// allows none; frame-ancestors/X-Frame-Options stop clickjacking of the resolve button;
// no-store keeps transfer details out of shared caches and the back-forward cache.
import type { MiddlewareHandler } from "hono";

const contentSecurityPolicy = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export function consoleHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.res.headers.set("Content-Security-Policy", contentSecurityPolicy);
    c.res.headers.set("X-Frame-Options", "DENY");
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    c.res.headers.set("Referrer-Policy", "same-origin");
    if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
  };
}
