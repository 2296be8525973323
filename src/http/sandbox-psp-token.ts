// The PSP token the sandbox checks like a real PSP would (CONTRACT §4): its PSP routes and its
// contestation API require it when PROVIDER_TOKEN is set; unset, the sandbox accepts anyone.
import type { MiddlewareHandler } from "hono";
import type { SecurityRequirement } from "./openapi/types.ts";

/** The PSP routes' OpenAPI security: `{}`, no token needed when PROVIDER_TOKEN is unset. */
export const providerSecurity: SecurityRequirement[] = [{ providerToken: [] }, {}];

/** When PROVIDER_TOKEN is set the sandbox checks it like a PSP would; unset, it accepts anyone. */
export function requireProviderToken(): MiddlewareHandler<{ Bindings: Env }> {
  return async (c, next) => {
    const token = c.env.PROVIDER_TOKEN;
    if (token !== undefined && token !== "" && c.req.header("authorization") !== `Bearer ${token}`) {
      return c.json({ code: "unauthorized" }, 401);
    }
    await next();
  };
}
