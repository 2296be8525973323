// Fail closed (CONTRACT §1): while the configuration has problems, every route but /healthz
// answers 503 `misconfigured`, before auth, so no request reaches the ledger, a saga object or
// the provider. /healthz answers 503 too and names the problems (health.ts).
import type { MiddlewareHandler } from "hono";
import { configOf } from "../config/isolate.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";

export const healthPath = "/healthz";

export function requireConfiguration(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.path === healthPath || configOf(c.env).ok) return next();
    return problem(c, 503, {
      type: "misconfigured",
      detail: `This service is not configured to move money; ${healthPath} says what is missing.`,
    });
  };
}
