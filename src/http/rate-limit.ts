// Per-account rate limit on creating transfers, with the Workers rate-limiting binding
// TRANSFER_RATE_LIMIT (wrangler.toml `[[ratelimits]]`: the limit and period live there).
//
//   transferRoutes.post("/", limitTransferRate(), jsonBody(createTransferBody), ...)
//
// It runs after client auth (the key is the token's account) and before anything reads the
// body, so a runaway client is turned away cheaply; every attempt counts, replays included.
import type { MiddlewareHandler } from "hono";
import { log } from "../lib/log.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";

/**
 * The binding's `simple` setting in wrangler.toml, which the binding cannot report: repeated
 * here for Retry-After and the API docs (a test keeps the two in step). The binding cannot tell
 * when its window ends, so Retry-After is the whole period: an upper bound, never too early.
 */
export const transferRateLimit = { limit: 60, periodSeconds: 60 } as const;

/**
 * `scope` gives a route its own budget under the same binding (e.g. the BR Code preview, which
 * may call the provider): the key is `scope:account`; the transfers' own key is the bare account.
 */
export function limitTransferRate(scope: string | null = null): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const limiter = c.env.TRANSFER_RATE_LIMIT;
    // A missing binding is a deployment error: fail loudly (500 + log) rather than run unlimited.
    if (limiter === undefined) throw new Error("the TRANSFER_RATE_LIMIT binding is not configured");
    const accountId = c.get("accountId");
    let allowed: boolean;
    try {
      allowed = (await limiter.limit({ key: scope === null ? accountId : `${scope}:${accountId}` })).success;
    } catch (error) {
      // The limiter only protects us from runaway clients; its outage must not stop payments.
      log(c, "rate_limiter_unavailable", { account_id: accountId, error: String(error) }, "error");
      allowed = true;
    }
    if (!allowed) {
      log(c, "rate_limited", { account_id: accountId }, "warn");
      return problem(c, 429, {
        type: "rate-limited",
        detail: `Too many ${scope === null ? "transfer" : scope} requests for this account; retry in ${transferRateLimit.periodSeconds} seconds.`,
        headers: { "Retry-After": String(transferRateLimit.periodSeconds) },
      });
    }
    await next();
  };
}
