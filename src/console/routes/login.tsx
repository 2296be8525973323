// Login and logout. Login checks the operator token in constant time and sets the signed
// session cookie; a wrong token (a client JWT included) gets the form again with a 401.
import { Hono } from "hono";
import { log } from "../../lib/log.ts";
import { sameSecret } from "../../lib/same-secret.ts";
import { controlProblem } from "../../lib/text.ts";
import { throttleFailedAuth } from "../../web/auth-throttle.ts";
import type { ConsoleEnv } from "../console-env.ts";
import { accessIdentity, noTokenLogin, requireCsrf, requireSession, sameOrigin } from "../guard.tsx";
import { page } from "../render.tsx";
import { consoleKey, issueSession, readSession } from "../session.ts";
import { clearSessionCookie, readSessionCookie, writeSessionCookie } from "../session-cookie.ts";
import { LoginPage } from "../views/login.tsx";

/** Longer than any token we issue; bounds the hashing a login attempt can cause. */
const tokenLengthMax = 4096;

export const loginRoutes = new Hono<ConsoleEnv>();

loginRoutes.get("/login", async (c) => {
  // Behind Cloudflare Access the person is already known: no token login.
  const access = await accessIdentity(c);
  if (access instanceof Response) return access;
  if (access) return c.redirect("/console", 303);
  if (!c.env.OPS_TOKEN) return noTokenLogin(c);
  const session = await readSession(await consoleKey(c.env.OPS_TOKEN), readSessionCookie(c), Date.now());
  if (session) return c.redirect("/console", 303);
  return page(c, <LoginPage />);
});

loginRoutes.post("/login", async (c) => {
  if (!c.env.OPS_TOKEN) return noTokenLogin(c);
  // No session exists yet to bind a token to; the Origin check stops another site from
  // logging the operator into a session it chose (login CSRF).
  if (!(await sameOrigin(c))) return page(c, <LoginPage error="This login did not come from the console's own page." />, 403);
  const form = await c.req.parseBody();
  const token = typeof form.token === "string" ? form.token : "";
  // Bad input, not a guess (no token has control characters): 400, and the throttle is not spent.
  if (controlProblem(token) !== null) return page(c, <LoginPage error="The token must not contain control characters." />, 400);
  if (token === "" || token.length > tokenLengthMax || !(await sameSecret(token, c.env.OPS_TOKEN))) {
    log(c, "console_login_refused", {}, "warn");
    const throttled = await throttleFailedAuth(c);
    if (throttled) return throttled;
    return page(c, <LoginPage error="That operator token is not valid. Nothing was opened." />, 401);
  }
  const { cookieValue } = await issueSession(await consoleKey(c.env.OPS_TOKEN), Date.now());
  writeSessionCookie(c, cookieValue);
  log(c, "console_login", {});
  return c.redirect("/console", 303);
});

loginRoutes.post("/logout", requireSession(), requireCsrf(), (c) => {
  clearSessionCookie(c);
  log(c, "console_logout", {});
  return c.redirect("/console/login", 303);
});
