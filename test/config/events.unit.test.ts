// EVENTS_* configuration fails closed: a receiver without its own whsec_ secret or over plain
// http with the sandbox off is refused, never skipped (a secret that is a WEBHOOK_SECRET key is
// refused by parseConfig: test/config/production-env.ts).
import { describe, expect, it } from "vitest";
import { readEventsConfig } from "../../src/config/events.ts";

const secret = "whsec_dGVzdC1ldmVudHMtc2VjcmV0LTAxMjM0NTY3ODk=";

describe("the events configuration", () => {
  it("keeps events unsent when EVENTS_URL is unset or empty", () => {
    expect(readEventsConfig({})).toEqual({ delivery: "off" });
    expect(readEventsConfig({ EVENTS_URL: " ", EVENTS_SECRET: "anything" })).toEqual({ delivery: "off" });
  });

  it("delivers to an https receiver with its own secret, first retry 10 s unless told", () => {
    expect(readEventsConfig({ EVENTS_URL: "https://backend.example/pix", EVENTS_SECRET: secret })).toEqual({
      delivery: "on",
      url: "https://backend.example/pix",
      secret,
      retryFirstMs: 10_000,
    });
    expect(
      readEventsConfig({ EVENTS_URL: "http://127.0.0.1:9/e", EVENTS_SECRET: secret, SANDBOX_PROVIDER: "on", EVENTS_RETRY_FIRST_MS: "250" }),
    ).toMatchObject({
      retryFirstMs: 250,
    });
  });

  it.each([
    [{ EVENTS_URL: "not a url", EVENTS_SECRET: secret }, /EVENTS_URL must be an absolute URL/],
    [{ EVENTS_URL: "http://backend.example/pix", EVENTS_SECRET: secret }, /EVENTS_URL must be https:/],
    [{ EVENTS_URL: "ftp://backend.example/pix", EVENTS_SECRET: secret, SANDBOX_PROVIDER: "on" }, /EVENTS_URL must be https:/],
    [{ EVENTS_URL: "https://backend.example/pix" }, /EVENTS_SECRET must be whsec_/],
    [{ EVENTS_URL: "https://backend.example/pix", EVENTS_SECRET: "plain-secret-0123456789abcdef" }, /EVENTS_SECRET must be whsec_/],
    [
      { EVENTS_URL: "https://backend.example/pix", EVENTS_SECRET: secret, EVENTS_RETRY_FIRST_MS: "1e3" },
      /EVENTS_RETRY_FIRST_MS must be an integer/,
    ],
  ])("refuses %j", (source, message) => {
    expect(() => readEventsConfig(source)).toThrow(message);
  });
});
