// The `Authorization: Bearer <token>` header (RFC 6750) and the 401 that every auth failure gets.
import type { Context } from "hono";
import { tokenLengthMax } from "../../auth/jwt.ts";
import { problem } from "../../web/problem.ts";

// RFC 6750 §2.1 b64token; the scheme name is case-insensitive (RFC 9110 §11.1).
const bearerHeader = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export type BearerToken = { ok: true; token: string } | { ok: false; reason: "missing" | "malformed" };

export function bearerToken(c: Context): BearerToken {
  const header = c.req.header("Authorization");
  if (header === undefined || header === "") return { ok: false, reason: "missing" };
  if (header.length > tokenLengthMax + "Bearer ".length) return { ok: false, reason: "malformed" };
  const match = bearerHeader.exec(header);
  if (match?.[1] === undefined) return { ok: false, reason: "malformed" };
  return { ok: true, token: match[1] };
}

/**
 * A 401 problem with the challenge RFC 6750 §3 asks for: bare when no credentials came,
 * `error="invalid_token"` when some did, so a client knows to refresh rather than to log in.
 */
export function unauthorized(c: Context, detail: string, presented: boolean): Response {
  const challenge = presented ? 'Bearer realm="pix-cashout", error="invalid_token"' : 'Bearer realm="pix-cashout"';
  return problem(c, 401, { type: "unauthorized", detail, headers: { "WWW-Authenticate": challenge } });
}
