// GET /healthz (CONTRACT §2): 200 when the database answers, else 503.
import { Hono } from "hono";
import type { AppEnv } from "./app-env.ts";
import { withRequestDb } from "./db.ts";

export const healthRoutes = new Hono<AppEnv>();

healthRoutes.get("/", async (c) => {
  try {
    await withRequestDb(c, (db) => db.query("SELECT 1"));
    return c.json({ status: "ok" });
  } catch {
    return c.json({ status: "unavailable" }, 503);
  }
});
