// The sandbox provider's HTTP API under /sandbox (filled in by the saga issue).
import { Hono } from "hono";
import type { Env } from "../../env.ts";

export const sandboxRoutes = new Hono<{ Bindings: Env }>();
