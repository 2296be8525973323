// Who may call what: the security requirements of the client API and of the operators' API, and
// the answers their authentication adds to every operation behind it.
import { problemResponse, retryAfterHeader, wwwAuthenticateHeader } from "./build.ts";
import type { ResponseObject, SecurityRequirement } from "./types.ts";

export const clientSecurity: SecurityRequirement[] = [{ clientJwt: [] }];

/** What every authenticated /v1 operation may answer besides its own outcomes. */
export const clientAuthResponses: Record<string, ResponseObject> = {
  "401": problemResponse(
    "Missing, malformed, expired or wrongly signed token (`alg` is pinned; `none` is refused), or, with DEVICE_RULES on, a token without a valid `device_id`.",
    wwwAuthenticateHeader,
  ),
  "403": problemResponse("The token is valid but its account (`sub`) does not exist."),
  "503": problemResponse(
    "The token's signing keys (JWKS) cannot be fetched, or the database does not answer, right now: retry after `Retry-After`.",
    retryAfterHeader,
  ),
};

/** clientAuthResponses for an operation that reads business time (src/http/business-now.ts) before it writes. */
export const clientAuthReadingBusinessTime: Record<string, ResponseObject> = {
  ...clientAuthResponses,
  "503": problemResponse(
    "The token's signing keys (JWKS) cannot be fetched, the database does not answer, or (sandbox only) business time cannot be read: retry after `Retry-After`.",
    retryAfterHeader,
  ),
};

/** An operator operation's 503 when it reads business time (src/http/business-now.ts) before it writes. */
export const businessTimeUnreadableResponse: ResponseObject = problemResponse(
  "Business time cannot be read (sandbox only); nothing was written: retry after `Retry-After`.",
  retryAfterHeader,
);

export const opsSecurity: SecurityRequirement[] = [{ accessJwt: [] }, { opsToken: [] }];

/** What every /ops operation may answer besides its own outcomes. */
export const opsAuthResponses: Record<string, ResponseObject> = {
  "401": problemResponse(
    "Missing or wrong operator credentials: an invalid Access assertion or operator token (a client JWT is a wrong token here).",
    wwwAuthenticateHeader,
  ),
  "429": problemResponse("Too many failed operator sign-ins from this IP address.", retryAfterHeader),
  "503": problemResponse("The database does not answer right now: retry after `Retry-After`.", retryAfterHeader),
};

/**
 * What every operator write may answer besides its own responses (auth/ops-same-origin.ts, ops-json-body.ts):
 * another site's request is refused, and so is a body not labelled JSON.
 */
export function opsWriteRefusals(path: string, method: string): Record<string, ResponseObject> {
  if (!path.startsWith("/ops/") || !["post", "put", "delete", "patch"].includes(method)) return {};
  return {
    "403": problemResponse(
      "Sent by another site's page (`Sec-Fetch-Site` cross-site or same-site, or a foreign `Origin`), or not the caller's to do (a person's decision asked by `ops-token`); nothing happened.",
    ),
    "415": problemResponse(
      "The body is not labelled `Content-Type: application/json` (an empty body so labelled is `{}`); nothing happened.",
    ),
  };
}
