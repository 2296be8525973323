import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { type RequestIdVariables, requestId } from "../../src/http/request-id.ts";
import { installProblemHandlers } from "../../src/web/problem.ts";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function app() {
  const app = new Hono<{ Variables: RequestIdVariables }>();
  app.use(requestId());
  installProblemHandlers(app);
  app.get("/id", (c) => c.json({ request_id: c.get("requestId") }));
  app.get("/bare", () => new Response("plain"));
  return app;
}

async function idFor(incoming?: string): Promise<{ header: string | null; seen: string }> {
  const headers: Record<string, string> = incoming === undefined ? {} : { "X-Request-Id": incoming };
  const response = await app().request("/id", { headers });
  const body = (await response.json()) as { request_id: string };
  return { header: response.headers.get("X-Request-Id"), seen: body.request_id };
}

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

  it.each(["abc", "gateway_req-01", "base64id==", "A".repeat(64)])("reuses the sane incoming id %s", async (incoming) => {
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
