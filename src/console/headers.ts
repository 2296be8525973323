// Response headers for every console response, from hono's secureHeaders. The console needs no
// script at all, so the CSP allows none; frame-ancestors/X-Frame-Options stop clickjacking of
// the resolve button; no-store keeps transfer details out of shared caches and the back-forward
// cache.
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";

const secure = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
  },
  xFrameOptions: "DENY",
  referrerPolicy: "same-origin",
  // HSTS belongs to the zone (Cloudflare's SSL/TLS settings): includeSubDomains sent from one
  // path would bind every subdomain of the Worker's host.
  strictTransportSecurity: false,
});

export function consoleHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await secure(c, next);
    // secureHeaders sets no Cache-Control; a response that chose its own (the stylesheet) keeps it.
    if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
  };
}
