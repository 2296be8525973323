// No request from another site acts on /ops/* (CONTRACT §5). Behind Cloudflare Access the
// browser's CF_Authorization cookie turns into a valid assertion on every request, whichever
// page sent it, so a write must prove it was not sent by another site: a browser says where a
// request comes from (`Sec-Fetch-Site`, `Origin`), and a page of another site can send a body
// without a CORS preflight only as a form or text/plain, never as application/json. Machines
// (curl with OPS_TOKEN) send neither header and pass; everyone labels the body JSON.
//
//   app.use("/ops/*", opsSameOrigin());   // before opsAuth: nothing of a forged request is read
import type { Context, MiddlewareHandler } from "hono";
import { problem } from "../../web/problem.ts";
import { jsonLabelled } from "../validation.ts";

/** Methods that change something; reads stay open to any page (no CORS header lets it read the answer). */
const writeMethods = new Set(["POST", "PUT", "DELETE", "PATCH"]);
/** `none` is a request the person made (the address bar, a bookmark); `same-origin` our own page. */
const foreignFetchSites = new Set(["cross-site", "same-site"]);

export function opsSameOrigin(): MiddlewareHandler {
  return async (c, next) => {
    if (!writeMethods.has(c.req.method)) return next();
    const refusal = foreignSiteRefusal(c);
    if (refusal !== null) return problem(c, 403, { type: "forbidden", detail: refusal });
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
