// GET /healthz (CONTRACT §2): 200 when the configuration is complete and the database answers,
// else a 503 problem (errors are problem+json everywhere, this one included). A configuration
// with problems names them, variable by variable, never their values. The database's answer
// comes from a few seconds' per-isolate cache (health-cache.ts says why).
import { Hono } from "hono";
import { configOf } from "../config/isolate.ts";
import { log } from "../lib/log.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { withRequestDb } from "./db.ts";
import { type DatabaseHealth, healthCacheFor } from "./health-cache.ts";
import { jsonResponse, problemResponse } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";

export const healthRoutes = new Hono<AppEnv>();

const healthDoc = documented({
  operationId: "health",
  summary: "Health",
  description:
    "`200` when the configuration is complete and the database answers, else `503`. The database's answer is kept for 5 seconds per isolate, so probes do not open a connection each. A `503` of type `misconfigured` lists the variables that are missing or wrong in `errors` (names, never values).",
  tags: ["meta"],
  security: [],
  responses: {
    "200": jsonResponse("The Worker and its database answer.", "Health"),
    "503": problemResponse("The database does not answer (`unavailable`), or the configuration is incomplete (`misconfigured`)."),
  },
});

healthRoutes.get("/", healthDoc, async (c) => {
  const config = configOf(c.env);
  if (!config.ok) {
    return problem(c, 503, {
      type: "misconfigured",
      detail: `The configuration is incomplete: ${config.problems.map((p) => p.message).join("; ")}.`,
      errors: config.problems.map((p) => ({ field: p.variable, message: p.message })),
    });
  }
  const health = await healthCacheFor(c.env).read(Date.now(), async (): Promise<DatabaseHealth> => {
    try {
      await withRequestDb(c, (db) => db.query("SELECT 1"));
      return "ok";
    } catch (error) {
      log(c, "health_database_unavailable", { error: String(error) }, "error");
      return "unavailable";
    }
  });
  if (health === "ok") return c.json({ status: "ok" });
  return problem(c, 503, { type: "unavailable", detail: "The database does not answer." });
});
