import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { limitBody, maxBodyBytes } from "../../src/http/body-limit.ts";
import { jsonBody } from "../../src/http/validation.ts";
import { installProblemHandlers } from "../../src/web/problem.ts";

function app() {
  const app = new Hono();
  installProblemHandlers(app);
  app.use(limitBody());
  app.post("/echo", async (c) => c.json({ bytes: (await c.req.arrayBuffer()).byteLength }));
  app.post("/json", jsonBody(z.object({ note: z.string() })), (c) => c.json({ length: c.req.valid("json").note.length }));
  return app;
}

/** A body streamed in chunks, as with `Transfer-Encoding: chunked`: no Content-Length to trust. */
function chunkedRequest(path: string, chunkBytes: number, chunks: number): Request {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === chunks) return controller.close();
      sent += 1;
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x61));
    },
  });
  return new Request(`http://localhost${path}`, { method: "POST", body });
}

async function expectTooLarge(response: Response): Promise<void> {
  expect(response.status).toBe(413);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(await response.json()).toMatchObject({ type: "https://pix-cashout.dev/problems/payload-too-large", status: 413 });
}

describe("limitBody()", () => {
  it("is 16 KiB", () => {
    expect(maxBodyBytes).toBe(16_384);
  });

  function withLength(body: string, contentLength = body.length): Request {
    return new Request("http://localhost/echo", { method: "POST", body, headers: { "content-length": String(contentLength) } });
  }

  it("passes a body of exactly the limit with Content-Length", async () => {
    const request = withLength("a".repeat(maxBodyBytes));
    expect(request.headers.get("content-length")).toBe(String(maxBodyBytes));
    expect(await (await app().request(request)).json()).toEqual({ bytes: maxBodyBytes });
  });

  it("answers 413 for one byte over the limit with Content-Length", async () => {
    await expectTooLarge(await app().request(withLength("a".repeat(maxBodyBytes + 1))));
  });

  it("answers 413 from the Content-Length alone, before reading the body", async () => {
    await expectTooLarge(await app().request(withLength("{}", maxBodyBytes + 1)));
  });

  it("answers 413 for a chunked body without Content-Length once it passes the limit", async () => {
    const request = chunkedRequest("/echo", 1024, 64);
    expect(request.headers.has("content-length")).toBe(false);
    await expectTooLarge(await app().request(request));
  });

  it("passes a chunked body under the limit intact", async () => {
    const request = chunkedRequest("/echo", 1024, 16);
    expect(request.headers.has("content-length")).toBe(false);
    expect(await (await app().request(request)).json()).toEqual({ bytes: 16 * 1024 });
  });

  it("lets jsonBody read a chunked body that passed the limit", async () => {
    const json = JSON.stringify({ note: "n".repeat(1000) });
    const bytes = new TextEncoder().encode(json);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 500));
        controller.enqueue(bytes.slice(500));
        controller.close();
      },
    });
    const response = await app().request(new Request("http://localhost/json", { method: "POST", body }));
    expect(await response.json()).toEqual({ length: 1000 });
  });

  it("takes a tighter bound and refuses a nonsensical one", async () => {
    const small = new Hono();
    installProblemHandlers(small);
    small.post("/", limitBody(10), (c) => c.text("ok"));
    await expectTooLarge(await small.request("/", { method: "POST", body: "01234567890" }));
    expect((await small.request("/", { method: "POST", body: "0123456789" })).status).toBe(200);
    expect(() => limitBody(-1)).toThrow(RangeError);
    expect(() => limitBody(1.5)).toThrow(RangeError);
  });
});
