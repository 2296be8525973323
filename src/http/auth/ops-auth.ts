// Operator auth for /ops/* (CONTRACT §5): `Authorization: Bearer <OPS_TOKEN>`, compared in
// constant time. A client JWT is just a wrong token here.
//
//   ops.use(opsAuth());
import type { MiddlewareHandler } from "hono";
import { log } from "../request-id.ts";
import { bearerToken, unauthorized } from "./bearer.ts";

export type OpsAuthBindings = Pick<Env, "OPS_TOKEN">;

export function opsAuth(): MiddlewareHandler<{ Bindings: OpsAuthBindings }> {
  return async (c, next) => {
    const expected = c.env.OPS_TOKEN;
    if (!expected) {
      // Fail closed: an unset token must not mean "no token needed".
      log(c, "ops_token_unset", {}, "error");
      return unauthorized(c, "Operator access is not configured.", false);
    }
    const bearer = bearerToken(c);
    if (!bearer.ok) return unauthorized(c, "An operator bearer token is required.", bearer.reason === "malformed");
    if (!(await sameSecret(bearer.token, expected))) return unauthorized(c, "The operator token is not valid.", true);
    await next();
  };
}

/**
 * Hashing both sides first gives timingSafeEqual the equal lengths it needs, so neither the
 * token's content nor its length leaks through how long the comparison takes.
 */
export async function sameSecret(presented: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [presentedHash, expectedHash] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(presented)),
    crypto.subtle.digest("SHA-256", encoder.encode(expected)),
  ]);
  return crypto.subtle.timingSafeEqual(presentedHash, expectedHash);
}
