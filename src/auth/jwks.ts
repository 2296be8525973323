// The production signing keys (RS256/ES256) from `JWT_JWKS_URL`, imported once and kept in memory
// for a bounded time, keyed by `kid`. The fetch is injectable so tests serve their own JWKS.
//
//   const jwks = new JwksCache(url, fetchJwks);
//   await jwks.lookup({ alg: "RS256", kid: "2026-11" }, Date.now())  // KeyLookup
//
// Only fetched key sets are shared between requests, never a pending fetch: workerd does not
// let one request wait on I/O that another request started. jose (createLocalJWKSet) picks and
// imports the key; this keeps the fetching policy: TTL, rate-limited refetch, stale-if-error.
import { createLocalJWKSet, type JWK } from "jose";
import { readCappedText } from "../lib/capped-body.ts";
import { logEvent } from "../lib/log.ts";
import type { JwtKeyQuery, KeyLookup } from "./jwt.ts";

export type JwksFetch = (url: string, init: RequestInit) => Promise<Response>;

/** Keys are refetched this long after a successful fetch, so a removed key stops working. */
export const jwksCacheTtlMs = 10 * 60_000;
/** An unknown `kid` (a rotation) may trigger a refetch, but at most this often: random kids must not make us hammer the issuer. */
export const jwksRefetchIntervalMsMin = 30_000;
/** While the issuer is unreachable, keys fetched earlier keep working for this long. */
export const jwksStaleMsMax = 60 * 60_000;
export const jwksFetchTimeoutMs = 5_000;
export const jwksKeysMax = 20;
const rsaModulusBytesMin = 256; // RSA keys under 2048 bits are refused.

export const defaultJwksFetch: JwksFetch = (url, init) => fetch(url, init);

type KeySet = { keys: JWK[] };

export class JwksCache {
  readonly url: string;
  private readonly fetchJwks: JwksFetch;
  private kids = new Set<string>();
  private keySet: ReturnType<typeof createLocalJWKSet> | undefined;
  private fetchedAtMs: number | undefined;
  private attemptedAtMs: number | undefined;

  constructor(url: string, fetchJwks: JwksFetch = defaultJwksFetch) {
    this.url = url;
    this.fetchJwks = fetchJwks;
  }

  async lookup(query: JwtKeyQuery, nowMs: number): Promise<KeyLookup> {
    // Without a kid there is nothing to pick a key by; guessing would try every key.
    if (query.kid === undefined) return { ok: false, failure: "unknown_key" };
    const expired = this.fetchedAtMs === undefined || nowMs - this.fetchedAtMs >= jwksCacheTtlMs;
    const unknownKid = !this.kids.has(query.kid);
    const mayAttempt = this.attemptedAtMs === undefined || nowMs - this.attemptedAtMs >= jwksRefetchIntervalMsMin;
    if ((expired || unknownKid) && mayAttempt) await this.refresh(nowMs);
    if (this.keySet === undefined || this.fetchedAtMs === undefined || nowMs - this.fetchedAtMs >= jwksCacheTtlMs + jwksStaleMsMax) {
      return { ok: false, failure: "keys_unavailable" };
    }
    try {
      // jose matches kid, the key type to the algorithm (a key published for one is never used
      // with another) and `use`; it imports each key once per fetched set.
      return { ok: true, key: await this.keySet({ alg: query.alg, kid: query.kid }) };
    } catch {
      return { ok: false, failure: "unknown_key" };
    }
  }

  /** On failure the previous keys stay; `lookup` decides how long they may be trusted. */
  private async refresh(nowMs: number): Promise<void> {
    this.attemptedAtMs = nowMs;
    try {
      const response = await this.fetchJwks(this.url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(jwksFetchTimeoutMs),
        // Keys come from the configured URL only: a 3xx elsewhere is a failed fetch.
        redirect: "manual",
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`JWKS answered ${response.status}`);
      }
      const { text, tooLarge } = await readCappedText(response);
      if (tooLarge) throw new Error("JWKS too large");
      const keySet = usableKeys(JSON.parse(text));
      this.keySet = createLocalJWKSet(keySet);
      this.kids = new Set(keySet.keys.map((jwk) => jwk.kid ?? ""));
      this.fetchedAtMs = nowMs;
    } catch (error) {
      logEvent("jwks_fetch_failed", { url: this.url, error: String(error) }, "warn");
    }
  }
}

/**
 * The signing keys we accept, public members only (a JWKS that leaks `d` must still give us a
 * verify-only key). Others (other types, encryption keys, weak RSA) are skipped, not fatal.
 */
function usableKeys(body: unknown): KeySet {
  if (!isRecord(body) || !Array.isArray(body.keys)) throw new Error("JWKS has no keys array");
  const keys: JWK[] = [];
  for (const jwk of body.keys.slice(0, jwksKeysMax)) {
    if (!isRecord(jwk) || typeof jwk.kid !== "string" || (jwk.use !== undefined && jwk.use !== "sig")) continue;
    const publicJwk = publicSigningKey(jwk);
    if (publicJwk !== undefined) keys.push({ ...publicJwk, kid: jwk.kid, use: "sig" });
  }
  return { keys };
}

function publicSigningKey(jwk: Record<string, unknown>): JWK | undefined {
  if (jwk.kty === "RSA" && (jwk.alg === undefined || jwk.alg === "RS256")) {
    if (typeof jwk.n !== "string" || typeof jwk.e !== "string" || (jwk.n.length * 3) / 4 < rsaModulusBytesMin) return undefined;
    return { kty: "RSA", n: jwk.n, e: jwk.e, alg: "RS256" };
  }
  if (jwk.kty === "EC" && jwk.crv === "P-256" && (jwk.alg === undefined || jwk.alg === "ES256")) {
    if (typeof jwk.x !== "string" || typeof jwk.y !== "string") return undefined;
    return { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y, alg: "ES256" };
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
