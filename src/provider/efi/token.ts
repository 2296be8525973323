// Efí's OAuth2 client_credentials token (`POST /oauth/token`, Basic client_id:client_secret),
// cached per isolate until shortly before it expires, so a burst of sagas asks for one token,
// not one each. A 401 from the API invalidates it (the adapter then asks once more). A refusal
// of our credentials is cached too, for a minute: every saga step would otherwise ask again.

import { settledWithin } from "../../lib/within.ts";
import type { ProviderExchange } from "../classify.ts";
import { isCredentialsRefusal, parseBody, usableAnswer } from "../classify.ts";
import { exchangeOnce, type Fetcher } from "../http-exchange.ts";
import type { ProviderAlert, ProviderEvidence } from "../port.ts";
import { tokenBodySchema } from "./shapes.ts";

/** Renew this long before expiry (or at half the lifetime of a shorter token): never send a dying one. */
export const tokenRenewBeforeExpiryMsMax = 60_000;
/** Bounds the cache: one entry per (base URL, client id); more means something is generating ids. */
const cachedTokensMax = 16;

/**
 * How long a refusal of our credentials (401/403) is answered from memory before Efí is asked
 * again. Credentials are fixed by a person and a deploy, not by retrying: asking at every saga
 * step only hammers Efí's token endpoint (which rate-limits) and multiplies the alert. A minute
 * bounds how late a fix made at Efí's side (a re-enabled application) is noticed.
 */
export const credentialsRefusalCacheMs = 60_000;

interface CachedToken {
  accessToken: string;
  renewAtMs: number;
}

type Refused = Extract<TokenResult, { ok: false }>;

interface CachedRefusal {
  refused: Refused;
  askAgainAtMs: number;
}

/** By configuration: its token or its refusal; by configuration and operation: a call's 403. */
export type TokenCache = Map<string, CachedToken | CachedRefusal>;

/** The isolate's cache: shared by every saga object this isolate runs. */
const isolateTokens: TokenCache = new Map();
/** Token requests under way, per cache (a test's own cache has its own), by cache key. */
const requestsInFlight = new WeakMap<TokenCache, Map<string, Promise<TokenResult>>>();

function inFlightFor(cache: TokenCache): Map<string, Promise<TokenResult>> {
  let pending = requestsInFlight.get(cache);
  if (pending === undefined) {
    pending = new Map();
    requestsInFlight.set(cache, pending);
  }
  return pending;
}

export interface TokenClientOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  fetcher: Fetcher;
  nowMs: () => number;
  cache?: TokenCache;
}

export type TokenResult = { ok: true; accessToken: string } | { ok: false; why: string; evidence: ProviderEvidence; alert?: ProviderAlert };

export interface TokenClient {
  /** `operation` names the call the token is for (a 403 may refuse one operation only). */
  token(operation: string): Promise<TokenResult>;
  /** Forgets `accessToken` if it is still the cached one (another caller may have renewed it). */
  invalidate(accessToken: string): void;
  /**
   * A call refused our credentials: a 401 with a fresh token refuses them all (null), a 403
   * refuses `operation` (a scope we lack). Either is answered from memory for a minute.
   */
  refused(operation: string | null, why: string, evidence: ProviderEvidence): void;
}

export function createTokenClient(options: TokenClientOptions): TokenClient {
  const cache = options.cache ?? isolateTokens;
  const cacheKey = `${options.baseUrl} ${options.clientId}`;
  const inFlight = inFlightFor(cache);

  const keyOf = (operation: string | null): string => (operation === null ? cacheKey : `${cacheKey} ${operation}`);

  function remember(key: string, entry: CachedToken | CachedRefusal): void {
    if (cache.size >= cachedTokensMax && !cache.has(key)) cache.clear();
    cache.set(key, entry);
  }

  function rememberRefusal(operation: string | null, refused: Refused, atMs: number): void {
    const askAgainAtMs = atMs + credentialsRefusalCacheMs;
    const error = `credentials refused at ${new Date(atMs).toISOString()}; not asked again before ${new Date(askAgainAtMs).toISOString()}`;
    // What later callers see: the refusal's status, without its body or timing (no call was made).
    const evidence: ProviderEvidence = { httpStatus: refused.evidence.httpStatus, durationMs: 0, body: null, error };
    remember(keyOf(operation), { refused: { ...refused, evidence }, askAgainAtMs });
  }

  /** A refusal still answered from memory for this operation (all of them, or this one). */
  function refusalFor(operation: string, nowMs: number): Refused | null {
    for (const key of [keyOf(null), keyOf(operation)]) {
      const entry = cache.get(key);
      if (entry !== undefined && "refused" in entry && nowMs < entry.askAgainAtMs) return entry.refused;
    }
    return null;
  }

  async function request(): Promise<TokenResult> {
    const requestedAtMs = options.nowMs();
    const { exchange, evidence } = await exchangeOnce(options.fetcher, tokenRequest(options), options.timeoutMs);
    const result = readToken(exchange, evidence);
    if (!result.ok) {
      if (result.alert === "credentials_refused") rememberRefusal(null, result, requestedAtMs);
      return result;
    }
    const lifetimeMs = result.expiresInSeconds * 1000;
    const renewAtMs = requestedAtMs + lifetimeMs - Math.min(tokenRenewBeforeExpiryMsMax, lifetimeMs / 2);
    remember(cacheKey, { accessToken: result.accessToken, renewAtMs });
    return { ok: true, accessToken: result.accessToken };
  }

  return {
    async token(operation: string): Promise<TokenResult> {
      const nowMs = options.nowMs();
      const refused = refusalFor(operation, nowMs);
      if (refused !== null) return refused;
      const cached = cache.get(cacheKey);
      if (cached !== undefined && "accessToken" in cached && nowMs < cached.renewAtMs) return { ok: true, accessToken: cached.accessToken };
      // Single flight: a cold burst of sagas waits for one token request instead of each asking.
      const pending = inFlight.get(cacheKey);
      if (pending !== undefined) {
        // The request belongs to another saga's call: if that one went away (an evicted
        // object), its promise may never settle here, so wait at most one timeout, then ask.
        const shared = await settledWithin(pending, options.timeoutMs + sharedWaitMarginMs);
        if (shared !== null) return shared;
      }
      const asked = request().finally(() => inFlight.delete(cacheKey));
      inFlight.set(cacheKey, asked);
      return asked;
    },
    invalidate(accessToken: string): void {
      const cached = cache.get(cacheKey);
      if (cached !== undefined && "accessToken" in cached && cached.accessToken === accessToken) cache.delete(cacheKey);
    },
    refused(operation: string | null, why: string, evidence: ProviderEvidence): void {
      rememberRefusal(operation, { ok: false, why, evidence, alert: "credentials_refused" }, options.nowMs());
    },
  };
}

/** Beyond the token call's own timeout, before a waiter stops waiting for another's request. */
const sharedWaitMarginMs = 1_000;

function tokenRequest(options: TokenClientOptions) {
  const basic = btoa(`${options.clientId}:${options.clientSecret}`);
  return {
    url: `${options.baseUrl}/oauth/token`,
    method: "POST",
    headers: { authorization: `Basic ${basic}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials" }),
  } as const;
}

type ReadToken = { ok: true; accessToken: string; expiresInSeconds: number } | Extract<TokenResult, { ok: false }>;

function readToken(exchange: ProviderExchange, evidence: ProviderEvidence): ReadToken {
  // The token never goes into evidence: operators see that it came, not what it was.
  const redacted: ProviderEvidence = {
    ...evidence,
    body: exchange.kind === "answered" && exchange.httpStatus === 200 ? "[token]" : evidence.body,
  };
  const answer = usableAnswer(exchange);
  if (!answer.usable) return { ok: false, why: `token_${answer.why}`, evidence: redacted };
  if (isCredentialsRefusal(answer.httpStatus)) {
    return { ok: false, why: `token_http_${answer.httpStatus}`, evidence: redacted, alert: "credentials_refused" };
  }
  if (answer.httpStatus !== 200) return { ok: false, why: `token_http_${answer.httpStatus}`, evidence: redacted };
  const body = parseBody(tokenBodySchema, answer.body);
  if (body === null) return { ok: false, why: "token_malformed_body", evidence: redacted };
  return { ok: true, accessToken: body.access_token, expiresInSeconds: body.expires_in };
}
