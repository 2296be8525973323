// The console's gate: a valid Cloudflare Access assertion (the person, no login, and no
// OPS_TOKEN needed), else a valid session cookie (a token login), else a redirect to the login
// page; for a POST also the session's CSRF token and a same-origin request. A client JWT or the
// bare OPS_TOKEN in an Authorization header opens nothing here.
import type { Context, MiddlewareHandler } from "hono";
import { csrf } from "hono/csrf";
import { HTTPException } from "hono/http-exception";
import { type AccessIdentity, accessAssertionHeader, accessConfigured, workerAccessVerifier } from "../auth/access.ts";
import { log } from "../lib/log.ts";
import { throttleFailedAuth } from "../web/auth-throttle.ts";
import type { ConsoleEnv } from "./console-env.ts";
import { page } from "./render.tsx";
import { accessConsoleKey, accessSession, type ConsoleSession, consoleKey, csrfToken, csrfTokenMatches, readSession } from "./session.ts";
import { clearSessionCookie, readSessionCookie } from "./session-cookie.ts";
import { RefusalPage } from "./views/refusal.tsx";

export const loginPath = "/console/login";

/**
 * No Access assertion and OPS_TOKEN unset: there is no token login. Behind Access the person
 * must come through it (401); with neither configured, fail closed as /ops/* does (503).
 */
export function noTokenLogin(c: Context<ConsoleEnv>): Response | Promise<Response> {
  if (accessConfigured(c.env)) {
    return page(c, <RefusalPage title="Sign in through Cloudflare Access" message="Token login is off here (OPS_TOKEN is unset)." />, 401);
  }
  return page(c, <RefusalPage title="Console unavailable" message="Operator access is not configured (OPS_TOKEN is unset)." />, 503);
}

export interface SignedIn {
  session: ConsoleSession;
  /** MACs the session's CSRF tokens (and a token session's cookie). */
  key: CryptoKey;
}

export function requireSession(): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const access = await accessIdentity(c);
    if (access instanceof Response) return access;
    const signedIn = access ?? (await tokenSession(c));
    if (signedIn instanceof Response) return signedIn;
    c.set("session", signedIn.session);
    c.set("consoleKey", signedIn.key);
    c.set("csrfToken", await csrfToken(signedIn.key, signedIn.session));
    await next();
  };
}

/** The token login's session from its cookie, else the way to the login page. */
async function tokenSession(c: Context<ConsoleEnv>): Promise<SignedIn | Response> {
  if (!c.env.OPS_TOKEN) return noTokenLogin(c);
  const key = await consoleKey(c.env.OPS_TOKEN);
  const cookie = readSessionCookie(c);
  const session = await readSession(key, cookie, Date.now());
  if (session) return { session, key };
  // A stale or forged cookie is dropped, so the browser stops sending it.
  if (cookie !== undefined) clearSessionCookie(c);
  return c.redirect(loginPath, 303);
}

/**
 * The person behind Cloudflare Access, signed in; null when the request has no assertion (or
 * Access is not configured, or it is a machine's service token); a refusal page for a bad one.
 */
export async function accessIdentity(c: Context<ConsoleEnv>): Promise<SignedIn | null | Response> {
  const nowMs = Date.now();
  const assertion = c.req.header(accessAssertionHeader) ?? "";
  const identity: AccessIdentity = await workerAccessVerifier.identify(assertion, c.env, nowMs);
  switch (identity.outcome) {
    case "person":
      return { session: accessSession(identity.email, identity.sub, nowMs), key: await accessConsoleKey(assertion) };
    case "absent":
      return null;
    case "keys_unavailable":
      log(c, "access_certs_unavailable", {}, "error");
      return page(
        c,
        <RefusalPage title="Console unavailable" message="Cloudflare Access's keys cannot be fetched right now. Try again in a minute." />,
        503,
      );
    case "refused": {
      log(c, "access_assertion_refused", { failure: identity.failure }, "warn");
      const throttled = await throttleFailedAuth(c);
      if (throttled) return throttled;
      return page(
        c,
        <RefusalPage title="Access refused" message="Your Cloudflare Access sign-in is not valid here. Sign in again." />,
        401,
      );
    }
  }
}

/**
 * hono's csrf: a form POST passes with `Sec-Fetch-Site: same-origin` (or `none`) or an Origin
 * equal to the console's own; with neither header it is refused too, since every browser sends
 * one on a POST. Run as a check, not a middleware, so a refusal is the console's own page.
 */
const originCheck = csrf({ secFetchSite: ["same-origin", "none"] });

export async function sameOrigin(c: Context): Promise<boolean> {
  let passed = false;
  try {
    await originCheck(c, async () => {
      passed = true;
    });
  } catch (error) {
    if (!(error instanceof HTTPException && error.status === 403)) throw error;
  }
  return passed;
}

/** For every state-changing route: after requireSession. */
export function requireCsrf(): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const form = await c.req.parseBody();
    const presented = typeof form.csrf === "string" ? form.csrf : "";
    if (!(await sameOrigin(c)) || !(await csrfTokenMatches(c.var.consoleKey, c.var.session, presented))) {
      const message = "This form did not come from your console session (missing or wrong CSRF token). Reload the page and try again.";
      return page(c, <RefusalPage title="Request refused" message={message} csrfToken={c.var.csrfToken} />, 403);
    }
    await next();
  };
}
