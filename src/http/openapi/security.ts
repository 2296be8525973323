// Who may call what: the security requirements of the client API and of the operators' API, and
// the answers their authentication adds to every operation behind it.
import { problemResponse, retryAfterHeader, wwwAuthenticateHeader } from "./build.ts";
import type { ResponseObject, SecurityRequirement } from "./types.ts";

export const clientSecurity: SecurityRequirement[] = [{ clientJwt: [] }];

/** What every authenticated /v1 operation may answer besides its own outcomes. */
export const clientAuthResponses: Record<string, ResponseObject> = {
  "401": problemResponse(
    "Missing, malformed, expired or wrongly signed token (`alg` is pinned; `none` is refused).",
    wwwAuthenticateHeader,
  ),
  "403": problemResponse("The token is valid but its account (`sub`) does not exist."),
  "503": problemResponse("The token's signing keys (JWKS) cannot be fetched right now; retry later.", retryAfterHeader),
};

export const opsSecurity: SecurityRequirement[] = [{ accessJwt: [] }, { opsToken: [] }];

/** What every /ops operation may answer besides its own outcomes. */
export const opsAuthResponses: Record<string, ResponseObject> = {
  "401": problemResponse(
    "Missing or wrong operator credentials: an invalid Access assertion or operator token (a client JWT is a wrong token here).",
    wwwAuthenticateHeader,
  ),
  "429": problemResponse("Too many failed operator sign-ins from this IP address.", retryAfterHeader),
};
