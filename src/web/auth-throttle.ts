// Failed operator authentications (/ops/* and the console's login) are throttled per source IP
// with the Workers rate-limit binding OPS_AUTH_RATE_LIMIT (wrangler.toml `[[ratelimits]]`).
//
//   const throttled = await throttleFailedAuth(c);   // after a refusal, before answering 401
//   if (throttled) return throttled;                 // 429 with Retry-After
//
// Only failures count, so a script with the right token is never slowed by its own volume; an IP
// past the limit gets 429 instead of 401 for every further failure. Guessing is stopped by the
// length of the secrets (OPS_TOKEN at least 32 characters), the throttle stops the noise.
import type { Context } from "hono";
import { log } from "../lib/log.ts";
import { problem } from "./problem.ts";

/** The binding's `simple` setting in wrangler.toml, repeated for Retry-After (a test keeps them in step). */
export const opsAuthRateLimit = { limit: 10, periodSeconds: 60 } as const;

/**
 * Cloudflare's edge sets CF-Connecting-IP on every request and overwrites a client's; it is
 * absent only off Cloudflare (`npm start`, tests), where there is no source to throttle by and
 * one shared key would throttle every local caller together.
 */
export function sourceIp(c: Context): string | undefined {
  return c.req.header("CF-Connecting-IP");
}

export async function throttleFailedAuth<E extends { Bindings: Partial<Pick<Env, "OPS_AUTH_RATE_LIMIT">> }>(
  c: Context<E>,
): Promise<Response | undefined> {
  const limiter = c.env.OPS_AUTH_RATE_LIMIT;
  const ip = sourceIp(c);
  if (ip === undefined) return undefined;
  if (limiter === undefined) {
    // The refusal stands either way: a missing binding only loses the throttle.
    log(c, "ops_auth_rate_limit_unset", {}, "error");
    return undefined;
  }
  let allowed: boolean;
  try {
    allowed = (await limiter.limit({ key: ip })).success;
  } catch (error) {
    log(c, "rate_limiter_unavailable", { error: String(error) }, "error");
    return undefined;
  }
  if (allowed) return undefined;
  log(c, "ops_auth_throttled", { ip }, "warn");
  return problem(c, 429, {
    type: "rate-limited",
    detail: `Too many failed operator sign-ins from this address; retry in ${opsAuthRateLimit.periodSeconds} seconds.`,
    headers: { "Retry-After": String(opsAuthRateLimit.periodSeconds) },
  });
}
