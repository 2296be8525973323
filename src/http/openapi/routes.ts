// GET /openapi.json and GET /docs (CONTRACT §2): the API described from its own schemas. No
// auth: the document holds nothing a client could not learn by calling the API.
import { Hono } from "hono";
import { configuredOrThrow } from "../../config/isolate.ts";
import type { AppEnv } from "../app-env.ts";
import { type DocumentSettings, openApiDocument } from "./document.ts";
import { renderReference } from "./render-html.ts";

/** The page loads nothing: no scripts, no fetches, only its own inline styles. */
const docsContentSecurityPolicy =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const apiDocsRoutes = new Hono<AppEnv>();

apiDocsRoutes.get("/openapi.json", (c) => c.json(openApiDocument(documentSettings(c.env), new URL(c.req.url).origin)));

apiDocsRoutes.get("/docs", (c) =>
  c.html(renderReference(openApiDocument(documentSettings(c.env), new URL(c.req.url).origin)), 200, {
    "Content-Security-Policy": docsContentSecurityPolicy,
  }),
);

function documentSettings(env: Env): DocumentSettings {
  const config = configuredOrThrow(env);
  return { sandboxEnabled: config.sandboxEnabled, maxTransferCents: config.rules.per_transfer_cents };
}
