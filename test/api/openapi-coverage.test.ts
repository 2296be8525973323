// The OpenAPI document lists exactly the routes the app serves, read from hono's `app.routes`: a
// route without its description (src/http/openapi/describe.ts) fails here, and so does a
// description whose route is gone. Two parts are served but not documented, on purpose: the
// console (/console/*: HTML pages for people, not an API) and the sandbox's Efí dialect
// (/sandbox/efi/*: a stand-in for Efí's own API, which Efí documents).
import type { RouterRoute } from "hono/types";
import { findTargetHandler } from "hono/utils/handler";
import { uniqueSymbol } from "hono-openapi";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app.ts";
import { openApiDocument } from "../../src/http/openapi/document.ts";

const undocumented = [/^\/console(\/|$)/, /^\/sandbox\/efi(\/|$)/];

/** `/v1/transfers/:id` -> `/v1/transfers/{id}`; a parameter's `{regex}` is no part of its name. */
function openApiPath(honoPath: string): string {
  return honoPath.replace(/:(\w+)(\{[^}]*\})?\??/g, "{$1}");
}

function isDescription(route: RouterRoute): boolean {
  return uniqueSymbol in findTargetHandler(route.handler);
}

/** `get /v1/transfers/{id}`, once per route; `use` middleware (method ALL) serves no route. */
function keyOf(route: RouterRoute): string {
  return `${route.method.toLowerCase()} ${openApiPath(route.path)}`;
}

function servedRoutes(): string[] {
  const served = app.routes.filter((route) => route.method !== "ALL" && !isDescription(route)).map(keyOf);
  return [...new Set(served)].filter((key) => !undocumented.some((pattern) => pattern.test(key.split(" ")[1] ?? ""))).sort();
}

async function documentedRoutes(): Promise<string[]> {
  // The sandbox on: the document then names every route it can.
  const doc = await openApiDocument(app, { sandboxEnabled: true, maxTransferCents: 1 }, "http://pix.test");
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
    .sort();
}

describe("the OpenAPI document's coverage of the app", () => {
  it("has routes to compare: the client API, the operators', the webhooks, the sandbox and the document itself", () => {
    const served = servedRoutes();
    for (const prefix of ["get /v1/", "post /ops/", "post /webhooks/efi", "put /sandbox/", "get /openapi.json", "get /docs"]) {
      expect(
        served.some((key) => key.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
  });

  it("documents every route the app serves, and names no route it does not serve", async () => {
    const served = servedRoutes();
    const documented = await documentedRoutes();
    expect(
      served.filter((key) => !documented.includes(key)),
      "served but missing from the document",
    ).toEqual([]);
    expect(
      documented.filter((key) => !served.includes(key)),
      "in the document but not served",
    ).toEqual([]);
  });

  it("describes each route once, in its own chain: a description never stands alone", () => {
    const descriptions = app.routes.filter(isDescription).map(keyOf);
    expect(descriptions.filter((key, i) => descriptions.indexOf(key) !== i)).toEqual([]);
    const served = new Set(app.routes.filter((route) => route.method !== "ALL" && !isDescription(route)).map(keyOf));
    expect(descriptions.filter((key) => !served.has(key))).toEqual([]);
  });
});
