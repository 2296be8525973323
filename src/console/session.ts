// The console's session. A token login's is a cookie value `<session id>.<expires at, Unix s>.<MAC>`,
// MAC'd with a key derived from OPS_TOKEN. No server-side state, so rotating OPS_TOKEN ends every
// session at once; the expiry is inside the signed value, so a client cannot stretch it. Behind
// Cloudflare Access the session is the person's assertion itself (accessConsoleKey).
// CSRF tokens are a MAC of the session id under the session's key: bound to one session, never stored.
import { machineOperator, type Operator, personOperator } from "../auth/operators.ts";
import { decodeBase64Url, encodeBase64Url } from "../lib/base64url.ts";

/** A working day: long enough for a shift, short enough that a forgotten laptop stops mattering. */
export const sessionLifetimeSeconds = 8 * 60 * 60;
const sessionIdBytes = 16;
/** 16 bytes and a 32-byte MAC in base64url, and a 10-digit expiry: anything else is not ours. */
const cookieValuePattern = /^([A-Za-z0-9_-]{22})\.(\d{10})\.([A-Za-z0-9_-]{43})$/;
const csrfTokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** Who acts (operators.ts): the person behind Cloudflare Access, or `ops-token` for a token login. */
export interface ConsoleSession extends Operator {
  sessionId: string;
  expiresAtSeconds: number;
}

/**
 * Behind Cloudflare Access every request carries the person's assertion, so there is no cookie:
 * the session is the person, and its CSRF tokens are bound to their sign-in (accessConsoleKey).
 */
export function accessSession(email: string, sub: string, nowMs: number): ConsoleSession {
  return {
    sessionId: `access.${email}`,
    expiresAtSeconds: Math.floor(nowMs / 1000) + sessionLifetimeSeconds,
    ...personOperator(email, sub),
  };
}

const encoder = new TextEncoder();

/** HMAC(OPS_TOKEN, "console-session"): the console's own key, so a MAC here means nothing elsewhere. */
export function consoleKey(opsToken: string): Promise<CryptoKey> {
  return derivedKey(opsToken, "console-session");
}

/**
 * The key of a session behind Cloudflare Access: HMAC(the verified assertion, "console-access").
 * Access puts the same application token on every request of a sign-in (the header and the
 * CF_Authorization cookie, HttpOnly, on the console's own host), so its CSRF tokens hold from
 * page to form on any isolate, need no configured secret (OPS_TOKEN may be unset behind
 * Access), and another site cannot compute them: it never sees the assertion. A new sign-in
 * means a new assertion, so a form left open across one asks for a reload, as a token session
 * that expired does. A per-isolate random key would be secret too but break whenever the form
 * posts to another isolate than the one that drew it.
 */
export function accessConsoleKey(assertion: string): Promise<CryptoKey> {
  return derivedKey(assertion, "console-access");
}

async function derivedKey(secret: string, purpose: string): Promise<CryptoKey> {
  const secretKey = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const derived = await crypto.subtle.sign("HMAC", secretKey, encoder.encode(purpose));
  return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** Domain-separated inputs: a session MAC can never pass as a CSRF token, nor the reverse. */
const sessionContent = (sessionId: string, expiresAtSeconds: number) => encoder.encode(`session.v1.${sessionId}.${expiresAtSeconds}`);
const csrfContent = (sessionId: string) => encoder.encode(`csrf.v1.${sessionId}`);

async function mac(key: CryptoKey, content: Uint8Array): Promise<string> {
  return encodeBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key, content)));
}

/** A session signed with `lifetimeSeconds` from now (tests sign expired ones with a negative lifetime). */
export async function issueSession(
  key: CryptoKey,
  nowMs: number,
  lifetimeSeconds: number = sessionLifetimeSeconds,
): Promise<{ session: ConsoleSession; cookieValue: string }> {
  const sessionId = encodeBase64Url(crypto.getRandomValues(new Uint8Array(sessionIdBytes)));
  const expiresAtSeconds = Math.floor(nowMs / 1000) + lifetimeSeconds;
  const signature = await mac(key, sessionContent(sessionId, expiresAtSeconds));
  return {
    // A token login's operator: the shared OPS_TOKEN names no person.
    session: { sessionId, expiresAtSeconds, ...machineOperator },
    cookieValue: `${sessionId}.${expiresAtSeconds}.${signature}`,
  };
}

/** The session, or null when the value is malformed, forged, signed by another key, or expired. */
export async function readSession(key: CryptoKey, cookieValue: string | undefined, nowMs: number): Promise<ConsoleSession | null> {
  const match = cookieValue === undefined ? null : cookieValuePattern.exec(cookieValue);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  const sessionId = match[1];
  const expiresAtSeconds = Number(match[2]);
  const signature = decodeBase64Url(match[3]);
  if (!signature) return null;
  // crypto.subtle.verify compares in constant time.
  if (!(await crypto.subtle.verify("HMAC", key, signature, sessionContent(sessionId, expiresAtSeconds)))) return null;
  const nowSeconds = Math.floor(nowMs / 1000);
  // The upper bound refuses values from a build with a longer lifetime, or a clock far behind.
  if (expiresAtSeconds <= nowSeconds || expiresAtSeconds > nowSeconds + sessionLifetimeSeconds) return null;
  return { sessionId, expiresAtSeconds, ...machineOperator };
}

export function csrfToken(key: CryptoKey, session: ConsoleSession): Promise<string> {
  return mac(key, csrfContent(session.sessionId));
}

export async function csrfTokenMatches(key: CryptoKey, session: ConsoleSession, presented: string): Promise<boolean> {
  if (!csrfTokenPattern.test(presented)) return false;
  const bytes = decodeBase64Url(presented);
  return bytes !== undefined && crypto.subtle.verify("HMAC", key, bytes, csrfContent(session.sessionId));
}
