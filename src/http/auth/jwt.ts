// A small JWS/JWT verifier over crypto.subtle with the algorithm pinned by the caller, never
// chosen by the token: `alg: none`, an HS256 token against RSA keys and the like fail here.
//
//   const result = await verifyJwt(token, { algorithms: ["HS256"], resolveKey, nowMs: Date.now() });
//   if (!result.ok) ... result.failure  // "expired", "bad_signature", ...
//
// Written rather than taken from hono/jwt because that one treats `exp` as optional and has no
// clock skew; this is about a hundred lines and every rule is visible.
import { decodeBase64Url } from "./base64url.ts";

export const jwtAlgorithms = ["HS256", "RS256", "ES256"] as const;
export type JwtAlgorithm = (typeof jwtAlgorithms)[number];

/** Tolerated clock difference between the token issuer and us, for `exp` and `nbf`. */
export const clockSkewMs = 30_000;
/** Longer tokens are rejected before any decoding or crypto work. */
export const tokenLengthMax = 8 * 1024;

export type JwtClaims = Record<string, unknown>;

/** What a verifier needs to know to pick a key; `kid` is undefined when the token has none. */
export type JwtKeyQuery = { alg: JwtAlgorithm; kid: string | undefined };
export type KeyLookup = { ok: true; key: CryptoKey } | { ok: false; failure: "unknown_key" | "keys_unavailable" };

export type JwtVerifyOptions = {
  /** The only algorithms accepted; the token's `alg` must be one of these. */
  algorithms: readonly JwtAlgorithm[];
  resolveKey: (query: JwtKeyQuery) => Promise<KeyLookup>;
  nowMs: number;
  issuer?: string;
  audience?: string;
};

export type JwtFailure =
  | "malformed"
  | "algorithm_not_allowed"
  | "unknown_key"
  | "keys_unavailable"
  | "bad_signature"
  | "missing_exp"
  | "expired"
  | "not_yet_valid"
  | "wrong_issuer"
  | "wrong_audience";

export type JwtVerifyResult = { ok: true; claims: JwtClaims } | { ok: false; failure: JwtFailure };

/** WebCrypto parameters per JWS algorithm (RFC 7518 §3). ES256 signatures are raw r||s, as WebCrypto wants. */
const verifyParams: Record<JwtAlgorithm, { name: string; hash?: string }> = {
  HS256: { name: "HMAC" },
  RS256: { name: "RSASSA-PKCS1-v1_5" },
  ES256: { name: "ECDSA", hash: "SHA-256" },
};

function fail(failure: JwtFailure): JwtVerifyResult {
  return { ok: false, failure };
}

function decodeJsonObject(part: string): Record<string, unknown> | undefined {
  const bytes = decodeBase64Url(part);
  if (bytes === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isAllowed(alg: unknown, allowed: readonly JwtAlgorithm[]): alg is JwtAlgorithm {
  return typeof alg === "string" && (allowed as readonly string[]).includes(alg);
}

export async function verifyJwt(token: string, options: JwtVerifyOptions): Promise<JwtVerifyResult> {
  if (token.length > tokenLengthMax) return fail("malformed");
  const parts = token.split(".");
  if (parts.length !== 3) return fail("malformed");
  const [headerPart = "", payloadPart = "", signaturePart = ""] = parts;
  const header = decodeJsonObject(headerPart);
  const claims = decodeJsonObject(payloadPart);
  const signature = decodeBase64Url(signaturePart);
  if (header === undefined || claims === undefined || signature === undefined) return fail("malformed");
  if (!isAllowed(header.alg, options.algorithms)) return fail("algorithm_not_allowed");
  // RFC 7515 §4.1.11: a token naming extensions we do not implement must be rejected.
  if (header.crit !== undefined) return fail("malformed");
  if (header.kid !== undefined && typeof header.kid !== "string") return fail("malformed");

  const lookup = await options.resolveKey({ alg: header.alg, kid: header.kid });
  if (!lookup.ok) return fail(lookup.failure);
  const signedBytes = new TextEncoder().encode(`${headerPart}.${payloadPart}`);
  if (!(await signatureMatches(header.alg, lookup.key, signature, signedBytes))) return fail("bad_signature");
  // Claims are checked only once the signature holds, so a forged token learns nothing from them.
  return checkClaims(claims, options);
}

async function signatureMatches(alg: JwtAlgorithm, key: CryptoKey, signature: BufferSource, signed: BufferSource): Promise<boolean> {
  const params = verifyParams[alg];
  // A key of another family (an HMAC key offered for RS256) must never be tried.
  if (key.algorithm.name !== params.name) return false;
  try {
    return await crypto.subtle.verify(params, key, signature, signed);
  } catch {
    return false; // e.g. an ES256 signature of the wrong length
  }
}

function checkClaims(claims: JwtClaims, options: JwtVerifyOptions): JwtVerifyResult {
  const { nowMs } = options;
  if (claims.exp === undefined) return fail("missing_exp");
  if (!isNumericDate(claims.exp)) return fail("malformed");
  if (claims.exp * 1000 + clockSkewMs <= nowMs) return fail("expired");
  if (claims.nbf !== undefined) {
    if (!isNumericDate(claims.nbf)) return fail("malformed");
    if (claims.nbf * 1000 - clockSkewMs > nowMs) return fail("not_yet_valid");
  }
  if (options.issuer !== undefined && claims.iss !== options.issuer) return fail("wrong_issuer");
  if (options.audience !== undefined && !audienceIncludes(claims.aud, options.audience)) return fail("wrong_audience");
  return { ok: true, claims };
}

function isNumericDate(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** RFC 7519 §4.1.3: `aud` is a string or an array of strings. */
function audienceIncludes(aud: unknown, audience: string): boolean {
  if (typeof aud === "string") return aud === audience;
  return Array.isArray(aud) && aud.includes(audience);
}
