// The one JSON logger (src/lib/log.ts): one line, the event and its id first and trusted, the
// console method by level, and never a throw or a runaway line.

import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type RequestIdVariables, requestId } from "../../src/http/request-id.ts";
import { log, logEvent, logLineLengthMax, logTransfer } from "../../src/lib/log.ts";
import { redactUrlSecrets } from "../../src/lib/redact.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

function linesOf(spy: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
  return spy.mock.calls.map((call) => JSON.parse(String(call[0])) as Record<string, unknown>);
}

describe("log()", () => {
  it("writes one JSON line with the event and request id, which fields cannot override", async () => {
    const written = vi.spyOn(console, "log").mockImplementation(() => {});
    const app = new Hono<{ Variables: RequestIdVariables }>();
    app.use(requestId());
    app.get("/log", (c) => {
      log(c, "transfer_created", { transfer_id: "t1", event: "spoofed", request_id: "spoofed" });
      return c.body(null, 204);
    });
    await app.request("/log", { headers: { "X-Request-Id": "log-1" } });
    expect(written).toHaveBeenCalledTimes(1);
    const line = String(written.mock.calls[0]?.[0]);
    expect(line).not.toContain("\n");
    expect(JSON.parse(line)).toEqual({ event: "transfer_created", request_id: "log-1", transfer_id: "t1" });
    expect(Object.keys(JSON.parse(line))).toEqual(["event", "request_id", "transfer_id"]);
  });

  it("sends warnings and errors to the matching console method", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const c = { get: () => "ctx-1" } as unknown as Parameters<typeof log>[0];
    log(c, "slow", {}, "warn");
    log(c, "broken", {}, "error");
    expect(linesOf(warn)).toEqual([{ event: "slow", request_id: "ctx-1" }]);
    expect(linesOf(error)).toEqual([{ event: "broken", request_id: "ctx-1" }]);
  });

  it("never throws on unserialisable fields, and bounds the line length", () => {
    const written = vi.spyOn(console, "log").mockImplementation(() => {});
    const c = { get: () => undefined } as unknown as Parameters<typeof log>[0];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    log(c, "big_numbers", { amount: 10n });
    log(c, "cyclic", { cyclic });
    log(c, "huge", { blob: "x".repeat(logLineLengthMax * 2) });
    const lines = written.mock.calls.map((call) => String(call[0]));
    expect(JSON.parse(lines[0] ?? "")).toEqual({ event: "big_numbers", request_id: null, amount: "10" });
    expect(JSON.parse(lines[1] ?? "")).toEqual({ event: "cyclic", request_id: null, log_error: "fields not serialisable" });
    expect(JSON.parse(lines[2] ?? "")).toMatchObject({ event: "huge", request_id: null });
    expect(lines[2]?.length).toBeLessThan(logLineLengthMax + 200);
  });
});

describe("logTransfer() and logEvent()", () => {
  it("name the transfer, or nothing, in the same line shape", () => {
    const written = vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    logTransfer("t-9", "events_delivered", { delivered: 2, transfer_id: "spoofed" });
    logTransfer(null, "saga_loaded");
    logEvent("sweep", { poked: 3, event: "spoofed" });
    logEvent("configuration_invalid", {}, "error");
    expect(linesOf(written)).toEqual([
      { event: "events_delivered", transfer_id: "t-9", delivered: 2 },
      { event: "saga_loaded", transfer_id: null },
      { event: "sweep", poked: 3 },
    ]);
    expect(linesOf(error)).toEqual([{ event: "configuration_invalid" }]);
  });
});

describe("secrets in logged URLs", () => {
  it("cuts Efí's webhook hmac out of every URL in a line, /pix appended or not", () => {
    const written = vi.spyOn(console, "warn").mockImplementation(() => {});
    const secret = "efi-webhook-hmac-0123456789abcdef";
    logEvent(
      "efi_webhook",
      { url: `https://pix.example/webhooks/efi?hmac=${secret}&ignorar=`, error: `POST /webhooks/efi?hmac=${secret}/pix failed` },
      "warn",
    );
    const line = String(written.mock.calls[0]?.[0]);
    expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toEqual({
      event: "efi_webhook",
      url: "https://pix.example/webhooks/efi?hmac=[redacted]&ignorar=",
      error: "POST /webhooks/efi?hmac=[redacted] failed",
    });
  });

  it("cuts it out of wrangler's request lines too (npm start passes them through redactUrlSecrets)", () => {
    const line = "[wrangler:info] POST /webhooks/efi/pix?HMAC=abc%2Fdef 200 OK (12ms)";
    expect(redactUrlSecrets(line)).toBe("[wrangler:info] POST /webhooks/efi/pix?HMAC=[redacted] 200 OK (12ms)");
  });
});
