// JWT verification with `jose`, the algorithm pinned by the caller, never chosen by the token:
// `alg: none`, an HS256 token against RSA keys and the like fail here. jose's errors are turned
// into a closed set of failures, so every caller answers the same way for the same fault.
//
//   const result = await verifyJwt(token, { algorithms: ["HS256"], resolveKey, nowMs: Date.now() });
//   if (!result.ok) ... result.failure  // "expired", "bad_signature", ...
//
// On top of jose: `exp` is required, `typ` when present must be a JWT media type, `iat` may not
// be in the future, and tokens over a size bound are refused before any decoding.
import { decodeJwt, decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from "jose";

export const jwtAlgorithms = ["HS256", "RS256", "ES256"] as const;
export type JwtAlgorithm = (typeof jwtAlgorithms)[number];

/** Tolerated clock difference between the token issuer and us, for `exp`, `nbf` and `iat`. */
export const clockSkewMs = 30_000;
/** Longer tokens are rejected before any decoding or crypto work. */
export const tokenLengthMax = 8 * 1024;
/** RFC 7519 §5.1 and RFC 9068 §2.1: the `typ` values of a JWT and of an OAuth access token. */
const acceptedTypes = new Set(["jwt", "at+jwt", "application/jwt", "application/at+jwt"]);

export type JwtClaims = JWTPayload;

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
  | "wrong_type"
  | "unknown_key"
  | "keys_unavailable"
  | "bad_signature"
  | "missing_exp"
  | "expired"
  | "not_yet_valid"
  | "issued_in_future"
  | "wrong_issuer"
  | "wrong_audience";

export type JwtVerifyResult = { ok: true; claims: JwtClaims } | { ok: false; failure: JwtFailure };

/** Thrown from the key resolver to carry a lookup failure through jose unchanged. */
class KeyLookupFailed extends Error {
  readonly failure: "unknown_key" | "keys_unavailable";
  constructor(failure: "unknown_key" | "keys_unavailable") {
    super(failure);
    this.failure = failure;
  }
}

function fail(failure: JwtFailure): JwtVerifyResult {
  return { ok: false, failure };
}

function isAllowed(alg: unknown, allowed: readonly JwtAlgorithm[]): alg is JwtAlgorithm {
  return typeof alg === "string" && (allowed as readonly string[]).includes(alg);
}

export async function verifyJwt(token: string, options: JwtVerifyOptions): Promise<JwtVerifyResult> {
  if (token.length > tokenLengthMax || token.split(".").length !== 3) return fail("malformed");
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
    // A payload that is no JSON object is malformed whatever its signature: say so first.
    decodeJwt(token);
  } catch {
    return fail("malformed");
  }
  // Checked before jose so the answer names the algorithm, whatever else is wrong.
  if (!isAllowed(header.alg, options.algorithms)) return fail("algorithm_not_allowed");
  if (header.kid !== undefined && typeof header.kid !== "string") return fail("malformed");
  if (header.typ !== undefined && (typeof header.typ !== "string" || !acceptedTypes.has(header.typ.toLowerCase()))) {
    return fail("wrong_type");
  }
  const alg = header.alg;
  const kid = header.kid;
  // A fault of the key source (e.g. a missing secret) is ours, not the token's: it is rethrown.
  let keyFault: { error: unknown } | undefined;
  try {
    const { payload } = await jwtVerify(
      token,
      async () => {
        const lookup = await options.resolveKey({ alg, kid }).catch((error: unknown) => {
          keyFault = { error };
          throw error;
        });
        if (!lookup.ok) throw new KeyLookupFailed(lookup.failure);
        return lookup.key;
      },
      {
        algorithms: [...options.algorithms],
        currentDate: new Date(options.nowMs),
        clockTolerance: clockSkewMs / 1000,
        requiredClaims: ["exp"],
        ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
        ...(options.audience === undefined ? {} : { audience: options.audience }),
      },
    );
    // jose checks `iat` only with maxTokenAge; a token minted in the future is a forged or broken clock.
    if (payload.iat !== undefined && payload.iat * 1000 - clockSkewMs > options.nowMs) return fail("issued_in_future");
    return { ok: true, claims: payload };
  } catch (error) {
    if (keyFault !== undefined) throw keyFault.error;
    return fail(failureOf(error));
  }
}

/** jose's error classes, by what a client should be told. */
function failureOf(error: unknown): JwtFailure {
  if (error instanceof KeyLookupFailed) return error.failure;
  if (error instanceof errors.JWTExpired) return error.claim === "iat" ? "issued_in_future" : "expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === "invalid") return "malformed";
    switch (error.claim) {
      case "exp":
        return "missing_exp";
      case "nbf":
        return "not_yet_valid";
      case "iat":
        return "issued_in_future";
      case "iss":
        return "wrong_issuer";
      case "aud":
        return "wrong_audience";
      default:
        return "malformed";
    }
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return "bad_signature";
  if (error instanceof errors.JOSEAlgNotAllowed) return "algorithm_not_allowed";
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) return "unknown_key";
  // JWSInvalid, JWTInvalid, JOSENotSupported (e.g. `crit`), a key of the wrong type (TypeError).
  return "malformed";
}
