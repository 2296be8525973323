// A route's entry in the OpenAPI document, written next to the route as its first handler:
//
//   transferRoutes.get("/:id", getTransferDoc, async (c) => { ... });
//
// hono-openapi's generateSpecs (document.ts) finds it in `app.routes` under the route's full
// path and method, so the document lists exactly the routes that carry one; the coverage test
// (test/api/openapi-coverage.test.ts) fails on a served route without one.
import type { MiddlewareHandler } from "hono";
import { describeRoute } from "hono-openapi";
import type { Operation } from "./types.ts";

export function documented(operation: Operation): MiddlewareHandler {
  return describeRoute(operation);
}
