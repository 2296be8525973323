import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { installProblemHandlers } from "../../src/http/problem.ts";
import { log, logLineLengthMax, type RequestIdVariables, requestId } from "../../src/http/request-id.ts";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function app() {
  const app = new Hono<{ Variables: RequestIdVariables }>();
  app.use(requestId());
  installProblemHandlers(app);
  app.get("/id", (c) => c.json({ request_id: c.get("requestId") }));
  app.get("/bare", () => new Response("plain"));
  app.get("/log", (c) => {
    log(c, "transfer_created", { transfer_id: "t1", event: "spoofed", request_id: "spoofed" });
    return c.body(null, 204);
  });
  return app;
}

async function idFor(incoming?: string): Promise<{ header: string | null; seen: string }> {
  const headers: Record<string, string> = incoming === undefined ? {} : { "X-Request-Id": incoming };
  const response = await app().request("/id", { headers });
  const body = (await response.json()) as { request_id: string };
  return { header: response.headers.get("X-Request-Id"), seen: body.request_id };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("requestId()", () => {
  it("generates a UUID when none comes in, and exposes the same id to handlers", async () => {
    const { header, seen } = await idFor();
    expect(header).toMatch(uuid);
    expect(seen).toBe(header);
  });

  it("gives each request its own id", async () => {
    const [a, b] = await Promise.all([idFor(), idFor()]);
    expect(a.header).not.toBe(b.header);
  });

  it.each(["abc", "gateway_req-01", "A".repeat(64)])("reuses the sane incoming id %s", async (incoming) => {
    expect(await idFor(incoming)).toEqual({ header: incoming, seen: incoming });
  });

  it.each([
    ["too long", "A".repeat(65)],
    ["with spaces", "abc def"],
    ["with a newline-ish character", "abc\tdef"],
    ["with JSON punctuation", 'a"}{'],
    ["empty", ""],
  ])("replaces an incoming id that is %s", async (_label, incoming) => {
    const { header, seen } = await idFor(incoming);
    expect(header).toMatch(uuid);
    expect(seen).toBe(header);
  });

  it("sets the header on a bare Response a handler returned", async () => {
    const response = await app().request("/bare", { headers: { "X-Request-Id": "bare-1" } });
    expect(await response.text()).toBe("plain");
    expect(response.headers.get("X-Request-Id")).toBe("bare-1");
  });

  it("sets the header on problem responses", async () => {
    const response = await app().request("/missing", { headers: { "X-Request-Id": "missing-1" } });
    expect(response.status).toBe(404);
    expect(response.headers.get("X-Request-Id")).toBe("missing-1");
  });
});

describe("log()", () => {
  it("writes one JSON line with the event and request id, which fields cannot override", async () => {
    const written = vi.spyOn(console, "log").mockImplementation(() => {});
    await app().request("/log", { headers: { "X-Request-Id": "log-1" } });
    expect(written).toHaveBeenCalledTimes(1);
    const line = String(written.mock.calls[0]?.[0]);
    expect(line).not.toContain("\n");
    expect(JSON.parse(line)).toEqual({ event: "transfer_created", request_id: "log-1", transfer_id: "t1" });
  });

  it("sends warnings and errors to the matching console method", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const c = { get: () => "ctx-1" } as unknown as Parameters<typeof log>[0];
    log(c, "slow", {}, "warn");
    log(c, "broken", {}, "error");
    expect(JSON.parse(String(warn.mock.calls[0]?.[0]))).toEqual({ event: "slow", request_id: "ctx-1" });
    expect(JSON.parse(String(error.mock.calls[0]?.[0]))).toEqual({ event: "broken", request_id: "ctx-1" });
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
