// Console helpers: log in through the form, carry the session cookie, read CSRF tokens off pages.
import { env } from "cloudflare:test";
import { baseUrl, call } from "../support/api.ts";

export const sessionCookieName = "__Host-console_session";

/** Form posts as a browser on the console's own origin sends them. */
export function postForm(path: string, fields: Record<string, string>, cookie: string | null, extraHeaders: Record<string, string> = {}) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, ...extraHeaders };
  if (cookie !== null) headers.cookie = cookie;
  return call(path, { method: "POST", headers, body: new URLSearchParams(fields).toString(), redirect: "manual" });
}

export function getPage(path: string, cookie: string | null): Promise<Response> {
  return call(path, { headers: cookie === null ? {} : { cookie }, redirect: "manual" });
}

/** `name=value` of the session cookie a response sets, for the next request's Cookie header. */
export function sessionCookieOf(response: Response): string | null {
  const setCookie = response.headers.get("set-cookie") ?? "";
  const match = new RegExp(`${sessionCookieName}=([^;]*)`).exec(setCookie);
  return match?.[1] ? `${sessionCookieName}=${match[1]}` : null;
}

export async function login(): Promise<string> {
  const response = await postForm("/console/login", { token: env.OPS_TOKEN }, null);
  const cookie = sessionCookieOf(response);
  if (response.status !== 303 || cookie === null) throw new Error(`login answered ${response.status}`);
  return cookie;
}

export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error("no CSRF field on the page");
  return match[1];
}

/** The CSRF token of a session, read off its home page as a browser would. */
export async function csrfFor(cookie: string): Promise<string> {
  return csrfOf(await (await getPage("/console", cookie)).text());
}
