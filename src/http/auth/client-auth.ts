// Client auth for /v1/* (CONTRACT §2): a JWT whose `sub` is the account id. The algorithm is
// pinned by configuration, never by the token: HS256 with JWT_SECRET, or, when JWT_JWKS_URL is
// set, RS256/ES256 from that JWKS only (HS256 off), where JWT_ISSUER and JWT_AUDIENCE are required:
// a shared key set (Firebase's serves every project) signs tokens for other audiences too.
// JWT_ISSUER/JWT_AUDIENCE are checked whenever set.
//
//   const v1 = new Hono<{ Bindings: Env; Variables: ClientAuthVariables }>();
//   v1.use(clientAuth());                          // once per app, so the JWKS cache is shared
//   v1.get("/balance", (c) => c.get("accountId"))  // a syntactically valid account id
//
// With DEVICE_RULES on, a token must also name its device (`device_id`, 1 to 128 printable ASCII):
// the new-device cap is decided by it. Off, a valid `device_id` is still read (a device may be
// registered ahead of the switch) but never required.
//
// Every bad token is a 401 problem with `WWW-Authenticate: Bearer`. An unreachable JWKS with
// nothing usable cached is a 503 (our outage). Whether the account exists (403 otherwise) is for
// the route that reads the database.
import type { MiddlewareHandler } from "hono";
import { defaultJwksFetch, JwksCache, type JwksFetch, jwksRefetchIntervalMsMin } from "../../auth/jwks.ts";
import { type JwtFailure, type KeyLookup, verifyJwt } from "../../auth/jwt.ts";
import { readDeviceRules } from "../../config/device-rules.ts";
import { accountIdPattern, deviceIdPattern } from "../../lib/ids.ts";
import { log } from "../../lib/log.ts";
import { problem } from "../../web/problem.ts";
import { bearerToken, unauthorized } from "./bearer.ts";

/** `deviceId`: the token's `device_id` when it is a valid one, else null (only possible with DEVICE_RULES off). */
export type ClientAuthVariables = { accountId: string; deviceId: string | null };
export type ClientAuthBindings = Pick<Env, "JWT_SECRET" | "JWT_JWKS_URL" | "JWT_ISSUER" | "JWT_AUDIENCE"> &
  Partial<Pick<Env, "DEVICE_RULES" | "SANDBOX_PROVIDER">>;

/** CONTRACT §5: account ids are 1 to 64 of [A-Za-z0-9_-]. */
/** RFC 7518 §3.2: an HS256 key shorter than the hash output (32 bytes) is guessable. */
export const jwtSecretLengthMin = 32;

export type ClientAuthOptions = {
  /** How the JWKS is fetched; tests inject one that serves their keys. */
  fetchJwks?: JwksFetch;
  /** The clock, in ms since the epoch; tests move it to age the JWKS cache. */
  nowMs?: () => number;
};

const failureDetails: Record<JwtFailure | "bad_subject" | "no_device", string> = {
  malformed: "The bearer token is not a well-formed JWT.",
  algorithm_not_allowed: "The bearer token is not signed with an accepted algorithm.",
  wrong_type: "The bearer token's typ header is not JWT or at+jwt.",
  unknown_key: "The bearer token is signed with an unknown key.",
  keys_unavailable: "The keys that sign bearer tokens cannot be fetched right now.",
  bad_signature: "The bearer token's signature is not valid.",
  missing_exp: "The bearer token has no expiry (exp).",
  expired: "The bearer token has expired.",
  not_yet_valid: "The bearer token is not valid yet (nbf).",
  issued_in_future: "The bearer token claims to be issued in the future (iat).",
  wrong_issuer: "The bearer token is from another issuer.",
  wrong_audience: "The bearer token is for another audience.",
  bad_subject: "The bearer token's subject is not an account id.",
  no_device: "The bearer token names no device: a device_id claim of 1 to 128 printable ASCII characters is required.",
};

export function clientAuth(
  options: ClientAuthOptions = {},
): MiddlewareHandler<{ Bindings: ClientAuthBindings; Variables: ClientAuthVariables }> {
  const nowMs = options.nowMs ?? Date.now;
  const keys = new KeySources(options.fetchJwks ?? defaultJwksFetch);

  return async (c, next) => {
    const bearer = bearerToken(c);
    if (!bearer.ok) {
      return unauthorized(
        c,
        bearer.reason === "missing" ? "A bearer token is required." : "The Authorization header is not a bearer token.",
        bearer.reason === "malformed",
      );
    }
    const jwksUrl = c.env.JWT_JWKS_URL;
    if (jwksUrl && (!c.env.JWT_ISSUER || !c.env.JWT_AUDIENCE)) {
      // Refused here too, whatever let the configuration through: without both, any token the
      // key set signs for anyone would open any account.
      log(c, "jwks_without_issuer_or_audience", {}, "error");
      return problem(c, 503, {
        type: "misconfigured",
        detail: "Client authentication is not configured completely.",
        headers: { "Retry-After": "60" },
      });
    }
    // iss/aud are checked whenever configured, in either mode: configured means enforced.
    const claimChecks = { nowMs: nowMs(), issuer: c.env.JWT_ISSUER || undefined, audience: c.env.JWT_AUDIENCE || undefined };
    const result = jwksUrl
      ? await verifyJwt(bearer.token, {
          ...claimChecks,
          algorithms: ["RS256", "ES256"],
          resolveKey: (query) => keys.jwks(jwksUrl).lookup(query, nowMs()),
        })
      : await verifyJwt(bearer.token, { ...claimChecks, algorithms: ["HS256"], resolveKey: () => keys.hmac(c.env.JWT_SECRET) });
    if (!result.ok && result.failure === "keys_unavailable") {
      // Our outage, not a bad token: a 401 would make apps log their users out.
      log(c, "jwks_unavailable", { jwks_url: jwksUrl }, "error");
      const retryAfterSeconds = String(jwksRefetchIntervalMsMin / 1000);
      return problem(c, 503, {
        type: "unavailable",
        detail: failureDetails.keys_unavailable,
        headers: { "Retry-After": retryAfterSeconds },
      });
    }
    if (!result.ok) return unauthorized(c, failureDetails[result.failure], true);
    const sub = result.claims.sub;
    if (typeof sub !== "string" || !accountIdPattern.test(sub)) return unauthorized(c, failureDetails.bad_subject, true);
    const deviceId =
      typeof result.claims.device_id === "string" && deviceIdPattern.test(result.claims.device_id) ? result.claims.device_id : null;
    if (deviceId === null && readDeviceRules(c.env)) return unauthorized(c, failureDetails.no_device, true);
    c.set("accountId", sub);
    c.set("deviceId", deviceId);
    await next();
  };
}

/** The verification keys, kept between requests: importing a key per request is wasted work. */
class KeySources {
  private readonly fetchJwks: JwksFetch;
  private jwksCache: JwksCache | undefined;
  private hmacKey: { secret: string; key: CryptoKey } | undefined;

  constructor(fetchJwks: JwksFetch) {
    this.fetchJwks = fetchJwks;
  }

  /** One cache for the configured URL; a changed URL (a redeploy) starts afresh. */
  jwks(url: string): JwksCache {
    if (this.jwksCache?.url !== url) this.jwksCache = new JwksCache(url, this.fetchJwks);
    return this.jwksCache;
  }

  async hmac(secret: string | undefined): Promise<KeyLookup> {
    // A missing or weak secret is a deployment error, not the client's: fail loudly (500 + log).
    if (secret === undefined || secret.length < jwtSecretLengthMin) {
      throw new Error(`JWT_SECRET must be set to at least ${jwtSecretLengthMin} characters when JWT_JWKS_URL is unset`);
    }
    if (this.hmacKey?.secret !== secret) {
      const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
        "verify",
      ]);
      this.hmacKey = { secret, key };
    }
    return { ok: true, key: this.hmacKey.key };
  }
}
