// No request from another site acts on /ops/* (CONTRACT §5). Behind Cloudflare Access the
// browser's CF_Authorization cookie turns into a valid assertion on every request, whichever
// page sent it, so a write must prove it was not sent by another site: a browser says where a
// request comes from (`Sec-Fetch-Site`, `Origin`). Machines (curl with OPS_TOKEN) send neither
// header and pass. The body's JSON label is checked after auth (../ops-json-body.ts).
//
//   app.use("/ops/*", opsSameOrigin());   // before opsAuth: a forged request is no failed sign-in
import type { Context, MiddlewareHandler } from "hono";
import { problem } from "../../web/problem.ts";

/** Methods that change something; reads stay open to any page (no CORS header lets it read the answer). */
export const opsWriteMethods: ReadonlySet<string> = new Set(["POST", "PUT", "DELETE", "PATCH"]);
/** `none` is a request the person made (the address bar, a bookmark); `same-origin` our own page. */
const foreignFetchSites = new Set(["cross-site", "same-site"]);

export function opsSameOrigin(): MiddlewareHandler {
  return async (c, next) => {
    if (!opsWriteMethods.has(c.req.method)) return next();
    const refusal = foreignSiteRefusal(c);
    if (refusal !== null) return problem(c, 403, { type: "forbidden", detail: refusal });
    return next();
  };
}

/** Why the request looks sent by another site's page, or null. */
function foreignSiteRefusal(c: Context): string | null {
  const fetchSite = c.req.header("Sec-Fetch-Site")?.toLowerCase();
  if (fetchSite !== undefined && foreignFetchSites.has(fetchSite)) {
    return `A ${fetchSite} request cannot act on /ops: operators act from the console, machines without a browser.`;
  }
  const origin = c.req.header("Origin");
  // `Origin: null` (a sandboxed frame, a redirect across sites) is not ours either.
  if (origin !== undefined && origin !== new URL(c.req.url).origin) {
    return "This request comes from a page of another origin; it cannot act on /ops.";
  }
  return null;
}
