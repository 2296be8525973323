// GET /openapi.json and GET /docs (CONTRACT §2): the API described from its own routes and
// schemas. No auth: the document holds nothing a client could not learn by calling the API.
import { Hono } from "hono";
import { configuredOrThrow } from "../../config/isolate.ts";
import type { AppEnv } from "../app-env.ts";
import { requestIdResponseHeader } from "./build.ts";
import { documented } from "./describe.ts";
import { type DocumentSettings, openApiDocument } from "./document.ts";
import { renderReference } from "./render-html.ts";

/** The page loads nothing: no scripts, no fetches, only its own inline styles. */
const docsContentSecurityPolicy =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const openApiDoc = documented({
  operationId: "openApiDocument",
  summary: "This document",
  description: "OpenAPI 3.1, generated from the routes and the schemas they validate with.",
  tags: ["meta"],
  security: [],
  responses: {
    "200": {
      description: "The OpenAPI document.",
      headers: requestIdResponseHeader,
      content: { "application/json": { schema: { type: "object" } } },
    },
  },
});

const referenceDoc = documented({
  operationId: "apiReference",
  summary: "API reference",
  description: "This document rendered as one HTML page.",
  tags: ["meta"],
  security: [],
  responses: {
    "200": {
      description: "The reference.",
      headers: requestIdResponseHeader,
      content: { "text/html": { schema: { type: "string" } } },
    },
  },
});

/** `app` is the whole API, read when a document is asked for: every route is mounted by then. */
export function apiDocsRoutes(app: Hono<AppEnv>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get("/openapi.json", openApiDoc, async (c) =>
    c.json(await openApiDocument(app, documentSettings(c.env), new URL(c.req.url).origin)),
  );
  routes.get("/docs", referenceDoc, async (c) =>
    c.html(renderReference(await openApiDocument(app, documentSettings(c.env), new URL(c.req.url).origin)), 200, {
      "Content-Security-Policy": docsContentSecurityPolicy,
    }),
  );
  return routes;
}

function documentSettings(env: Env): DocumentSettings {
  const config = configuredOrThrow(env);
  return { sandboxEnabled: config.sandboxEnabled, maxTransferCents: config.rules.per_transfer_cents };
}
