// Operator auth for /ops/* (CONTRACT §5): a person through Cloudflare Access
// (`Cf-Access-Jwt-Assertion`, actor = its email, identity = its sub), or a machine with
// `Authorization: Bearer <OPS_TOKEN>` compared in constant time (actor `ops-token`).
// A client JWT is just a wrong token here. Failed attempts are throttled per source IP.
//
//   ops.use(opsAuth());
//   c.get("actor")      // "ana@fintech.com.br" or "ops-token", recorded with every operator action
//   opsOperator(c.var)  // { actor, operatorId }: who it is, for four eyes and the machine's limits
import type { Context, MiddlewareHandler } from "hono";
import { type AccessBindings, type AccessVerifier, accessAssertionHeader, workerAccessVerifier } from "../../auth/access.ts";
import { jwksRefetchIntervalMsMin } from "../../auth/jwks.ts";
import { machineOperator, type Operator, personOperator } from "../../auth/operators.ts";
import { log } from "../../lib/log.ts";
import { sameSecret } from "../../lib/same-secret.ts";
import { throttleFailedAuth } from "../../web/auth-throttle.ts";
import { problem } from "../../web/problem.ts";
import { bearerToken, unauthorized } from "./bearer.ts";

export type OpsAuthBindings = Pick<Env, "OPS_TOKEN"> & AccessBindings & Partial<Pick<Env, "OPS_AUTH_RATE_LIMIT">>;
export type OpsActorVariables = { actor: string; operatorId: string };

export type OpsAuthOptions = {
  /** Tests pass one that serves their Access keys. */
  access?: AccessVerifier;
  nowMs?: () => number;
};

type OpsContext = Context<{ Bindings: OpsAuthBindings; Variables: OpsActorVariables }>;

export function opsAuth(options: OpsAuthOptions = {}): MiddlewareHandler<{ Bindings: OpsAuthBindings; Variables: OpsActorVariables }> {
  const access = options.access ?? workerAccessVerifier;
  const nowMs = options.nowMs ?? Date.now;
  return async (c, next) => {
    const operator = await operatorOf(c, access, nowMs());
    if (operator instanceof Response) return operator;
    c.set("actor", operator.actor);
    c.set("operatorId", operator.operatorId);
    await next();
  };
}

/** Who the request acts as, from what opsAuth set: `opsOperator(c.var)`. */
export function opsOperator(vars: OpsActorVariables): Operator {
  return { actor: vars.actor, operatorId: vars.operatorId };
}

/** The operator, or the response that refuses the request. */
async function operatorOf(c: OpsContext, access: AccessVerifier, nowMs: number): Promise<Operator | Response> {
  const identity = await access.identify(c.req.header(accessAssertionHeader), c.env, nowMs);
  switch (identity.outcome) {
    case "person":
      return personOperator(identity.email, identity.sub);
    case "keys_unavailable":
      log(c, "access_certs_unavailable", {}, "error");
      return problem(c, 503, {
        type: "unavailable",
        detail: "The keys that sign Access assertions cannot be fetched right now.",
        headers: { "Retry-After": String(jwksRefetchIntervalMsMin / 1000) },
      });
    case "refused":
      log(c, "access_assertion_refused", { failure: identity.failure }, "warn");
      return (await throttleFailedAuth(c)) ?? unauthorized(c, "The Access assertion is not valid.", true);
    case "absent":
      break;
  }
  const expected = c.env.OPS_TOKEN;
  const bearer = bearerToken(c);
  if (!expected) {
    // Fail closed: an unset token must not mean "no token needed".
    log(c, "ops_token_unset", {}, "error");
    return (await throttleFailedAuth(c)) ?? unauthorized(c, "Operator access is not configured.", false);
  }
  if (bearer.ok && (await sameSecret(bearer.token, expected))) return machineOperator;
  const presented = bearer.ok || bearer.reason === "malformed";
  const detail = bearer.ok ? "The operator token is not valid." : "An operator bearer token or an Access assertion is required.";
  return (await throttleFailedAuth(c)) ?? unauthorized(c, detail, presented);
}
