// The session cookie: `__Host-` prefixed (Secure, Path=/, no Domain: no subdomain can plant
// one), HttpOnly (no script can read it), SameSite=Strict (no other site's page sends it).
// Browsers keep Secure cookies over plain http only on localhost/127.0.0.1.
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { sessionLifetimeSeconds } from "./session.ts";

const cookieName = "console_session";
export const sessionCookieName = `__Host-${cookieName}`;

export function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, cookieName, "host");
}

export function writeSessionCookie(c: Context, value: string): void {
  setCookie(c, cookieName, value, {
    prefix: "host",
    path: "/",
    secure: true,
    httpOnly: true,
    sameSite: "Strict",
    maxAge: sessionLifetimeSeconds,
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, cookieName, { prefix: "host", path: "/", secure: true, httpOnly: true, sameSite: "Strict" });
}
