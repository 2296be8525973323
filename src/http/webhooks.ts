// POST /webhooks/provider (filled in by the saga issue).
import { Hono } from "hono";
import type { Env } from "../env.ts";

export const webhookRoutes = new Hono<{ Bindings: Env }>();
