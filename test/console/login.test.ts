// The console opens only with OPS_TOKEN through the login form, and only the signed cookie
// keeps it open: no client JWT, no bearer header, no forged or expired cookie.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { consoleKey, issueSession } from "../../src/console/session.ts";
import { call, clientToken } from "../support/api.ts";
import { csrfFor, getPage, login, postForm, sessionCookieName, sessionCookieOf } from "./support.ts";

async function expectLoginRedirect(response: Response): Promise<void> {
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe("/console/login");
}

describe("console login", () => {
  it("serves the login form with a labelled password field and protective headers", async () => {
    const response = await getPage("/console/login", null);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html><html lang="en">/);
    expect(html).toContain('<label for="token">');
    expect(html).toContain('id="token" name="token" type="password"');
    expect(response.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
    expect(response.headers.get("cache-control")).toBe("no-store");
    // HSTS is the zone's to set, not one path's.
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("refuses a login post that carries neither Origin nor Sec-Fetch-Site: every browser sends one", async () => {
    const response = await call("/console/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: env.OPS_TOKEN }).toString(),
      redirect: "manual",
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("sets an HttpOnly, Secure, SameSite=Strict session cookie for the operator token", async () => {
    const response = await postForm("/console/login", { token: env.OPS_TOKEN }, null);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/console");
    const setCookie = response.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(new RegExp(`^${sessionCookieName}=[A-Za-z0-9_-]{22}\\.\\d{10}\\.[A-Za-z0-9_-]{43};`));
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("Secure");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain("Max-Age=28800");
    const home = await getPage("/console", sessionCookieOf(response));
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Log out");
  });

  it.each([
    ["a wrong token", "not-the-ops-token"],
    ["an empty token", ""],
  ])("refuses %s with a clear message and no cookie", async (_label, token) => {
    const response = await postForm("/console/login", { token }, null);
    expect(response.status).toBe(401);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await response.text()).toContain("That operator token is not valid.");
  });

  it("refuses a valid client JWT as the token", async () => {
    const response = await postForm("/console/login", { token: await clientToken("acct-anyone") }, null);
    expect(response.status).toBe(401);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("refuses a login posted from another origin", async () => {
    const response = await postForm("/console/login", { token: env.OPS_TOKEN }, null, { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("opens nothing for an Authorization header: a client JWT or even the operator token", async () => {
    for (const bearer of [await clientToken("acct-anyone"), env.OPS_TOKEN]) {
      await expectLoginRedirect(await call("/console", { headers: { authorization: `Bearer ${bearer}` }, redirect: "manual" }));
    }
  });

  it("sends a missing, forged, expired or foreign-key cookie to the login page", async () => {
    const key = await consoleKey(env.OPS_TOKEN);
    const expired = await issueSession(key, Date.now(), -1);
    const foreign = await issueSession(await consoleKey("another-ops-token"), Date.now());
    const valid = await login();
    // One character of the MAC changed, in the middle: the last base64url character also holds
    // padding bits, so changing it can leave the decoded MAC the same (a flaky forgery).
    const at = valid.length - 10;
    const forged = `${valid.slice(0, at)}${valid[at] === "A" ? "B" : "A"}${valid.slice(at + 1)}`;
    await expectLoginRedirect(await getPage("/console/queue", null));
    for (const cookie of [forged, `${sessionCookieName}=${expired.cookieValue}`, `${sessionCookieName}=${foreign.cookieValue}`]) {
      const response = await getPage("/console/queue", cookie);
      await expectLoginRedirect(response);
      // The bad cookie is cleared, so the browser stops sending it.
      expect(response.headers.get("set-cookie")).toMatch(new RegExp(`^${sessionCookieName}=;.*Max-Age=0`));
    }
    // Without the __Host- prefix the cookie is not ours (a subdomain could have planted it).
    await expectLoginRedirect(await getPage("/console/queue", valid.replace(sessionCookieName, "console_session")));
  });

  it("logs out only with the session's CSRF token, then clears the cookie", async () => {
    const cookie = await login();
    const refused = await postForm("/console/logout", {}, cookie);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("CSRF");
    const response = await postForm("/console/logout", { csrf: await csrfFor(cookie) }, cookie);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/console/login");
    expect(response.headers.get("set-cookie")).toMatch(new RegExp(`^${sessionCookieName}=;.*Max-Age=0`));
  });
});
