// Operators as people (CONTRACT §5): Cloudflare Access puts a signed JWT in the
// `Cf-Access-Jwt-Assertion` header of every request it let through. RS256 only; `iss` must be
// ACCESS_TEAM_DOMAIN and `aud` must contain ACCESS_AUD; keys come from ACCESS_CERTS_URL (default
// `{ACCESS_TEAM_DOMAIN}/cdn-cgi/access/certs`), cached like the client JWKS. The token's `email`
// is the actor; its `sub` is who the person is (operators.ts: four eyes compares those). `Cf-Access-Authenticated-User-Email` is never read: anyone can send that header
// to a route that Access does not front.
//
//   const access = new AccessVerifier();
//   const identity = await access.identify(c.req.header(accessAssertionHeader), c.env, Date.now());
import { defaultJwksFetch, JwksCache, type JwksFetch } from "./jwks.ts";
import { type JwtFailure, verifyJwt } from "./jwt.ts";

export const accessAssertionHeader = "Cf-Access-Jwt-Assertion";
/** RFC 5321's bound on an address, and printable characters only: it goes into the audit trail. */
const actorEmailPattern = /^[^\s@\p{Cc}]{1,64}@[^\s@\p{Cc}]{1,189}$/u;
/** Access's user id (a UUID); printable and bounded, since it is stored with every credit. */
const subjectPattern = /^[^\s\p{Cc}]{1,255}$/u;

export type AccessBindings = Pick<Env, "ACCESS_TEAM_DOMAIN" | "ACCESS_AUD" | "ACCESS_CERTS_URL">;

export type AccessIdentity =
  | { outcome: "person"; email: string; sub: string }
  /** Access is not configured, the request carries no assertion, or a service token's: another credential may apply. */
  | { outcome: "absent" }
  | { outcome: "refused"; failure: JwtFailure | "no_email" | "no_sub" }
  | { outcome: "keys_unavailable" };

/** `https://team.cloudflareaccess.com` as the `iss` claim spells it: no trailing slash. */
function teamDomain(env: AccessBindings): string | undefined {
  return env.ACCESS_TEAM_DOMAIN ? env.ACCESS_TEAM_DOMAIN.replace(/\/+$/, "") : undefined;
}

export function accessConfigured(env: AccessBindings): boolean {
  return teamDomain(env) !== undefined && Boolean(env.ACCESS_AUD);
}

export function accessCertsUrl(env: AccessBindings): string | undefined {
  const team = teamDomain(env);
  if (team === undefined) return undefined;
  return env.ACCESS_CERTS_URL || `${team}/cdn-cgi/access/certs`;
}

export class AccessVerifier {
  private readonly fetchCerts: JwksFetch;
  private certs: JwksCache | undefined;

  constructor(fetchCerts: JwksFetch = defaultJwksFetch) {
    this.fetchCerts = fetchCerts;
  }

  async identify(assertion: string | undefined, env: AccessBindings, nowMs: number): Promise<AccessIdentity> {
    const issuer = teamDomain(env);
    const audience = env.ACCESS_AUD;
    const certsUrl = accessCertsUrl(env);
    if (!assertion || issuer === undefined || !audience || certsUrl === undefined) return { outcome: "absent" };
    // One cache for the configured URL; a changed URL (a redeploy) starts afresh.
    if (this.certs?.url !== certsUrl) this.certs = new JwksCache(certsUrl, this.fetchCerts);
    const certs = this.certs;
    const result = await verifyJwt(assertion, {
      algorithms: ["RS256"],
      issuer,
      audience,
      nowMs,
      resolveKey: (query) => certs.lookup(query, nowMs),
    });
    if (!result.ok)
      return result.failure === "keys_unavailable" ? { outcome: "keys_unavailable" } : { outcome: "refused", failure: result.failure };
    const email = result.claims.email;
    // A service token (Access for machines: a Service Auth policy) names no person, so it is no
    // credential here; the machine behind it still shows its Bearer OPS_TOKEN, or gets a 401.
    if (email === undefined) return { outcome: "absent" };
    if (typeof email !== "string" || !actorEmailPattern.test(email)) return { outcome: "refused", failure: "no_email" };
    // A person without a stable id cannot be told from another: four eyes would mean nothing.
    const sub = result.claims.sub;
    if (typeof sub !== "string" || !subjectPattern.test(sub)) return { outcome: "refused", failure: "no_sub" };
    return { outcome: "person", email: email.toLowerCase(), sub };
  }
}

/** The verifier of the Worker: one per isolate, so the certs are fetched once, not per request. */
export const workerAccessVerifier = new AccessVerifier();
