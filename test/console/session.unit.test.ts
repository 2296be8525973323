// The signed session value and the CSRF token bound to it, as pure functions of a key and a clock.
import { describe, expect, it } from "vitest";
import { consoleKey, csrfToken, csrfTokenMatches, issueSession, readSession, sessionLifetimeSeconds } from "../../src/console/session.ts";

const nowMs = Date.UTC(2026, 10, 20, 12, 0, 0);

describe("console session", () => {
  it("reads back a session it issued, until it expires", async () => {
    const key = await consoleKey("ops-token-a");
    const { session, cookieValue } = await issueSession(key, nowMs);
    expect(session.expiresAtSeconds).toBe(nowMs / 1000 + sessionLifetimeSeconds);
    expect(await readSession(key, cookieValue, nowMs)).toEqual(session);
    expect(await readSession(key, cookieValue, nowMs + (sessionLifetimeSeconds - 1) * 1000)).toEqual(session);
    expect(await readSession(key, cookieValue, nowMs + sessionLifetimeSeconds * 1000)).toBeNull();
  });

  it("refuses a value signed under another OPS_TOKEN: rotating the token ends every session", async () => {
    const { cookieValue } = await issueSession(await consoleKey("ops-token-a"), nowMs);
    expect(await readSession(await consoleKey("ops-token-b"), cookieValue, nowMs)).toBeNull();
  });

  it("refuses a stretched expiry, a changed id, a changed MAC and malformed values", async () => {
    const key = await consoleKey("ops-token-a");
    const { cookieValue } = await issueSession(key, nowMs);
    const [id = "", expires = "", mac = ""] = cookieValue.split(".");
    const flip = (text: string) => (text[0] === "A" ? "B" : "A") + text.slice(1);
    for (const forged of [
      `${id}.${Number(expires) + 3600}.${mac}`,
      `${flip(id)}.${expires}.${mac}`,
      `${id}.${expires}.${flip(mac)}`,
      `${id}.${expires}`,
      "",
      "not-a-session",
      `${cookieValue}.extra`,
    ]) {
      expect(await readSession(key, forged, nowMs)).toBeNull();
    }
    expect(await readSession(key, undefined, nowMs)).toBeNull();
  });

  it("refuses a validly signed value that outlives the session lifetime", async () => {
    const key = await consoleKey("ops-token-a");
    const { cookieValue } = await issueSession(key, nowMs, sessionLifetimeSeconds + 60);
    expect(await readSession(key, cookieValue, nowMs)).toBeNull();
  });

  it("binds the CSRF token to one session", async () => {
    const key = await consoleKey("ops-token-a");
    const first = await issueSession(key, nowMs);
    const second = await issueSession(key, nowMs);
    const token = await csrfToken(key, first.session);
    expect(await csrfTokenMatches(key, first.session, token)).toBe(true);
    expect(await csrfTokenMatches(key, second.session, token)).toBe(false);
    expect(await csrfTokenMatches(key, first.session, "")).toBe(false);
    // The session's own MAC is not a CSRF token: the two are domain-separated.
    expect(await csrfTokenMatches(key, first.session, first.cookieValue.split(".")[2] ?? "")).toBe(false);
  });
});
