// The adapter's transport edge with hand-built answers: failures that no sandbox key produces
// (a reset, a stalled body, a huge body) still become unknown outcomes with bounded evidence.
import { describe, expect, it } from "vitest";
import { evidenceBodyCharsMax } from "../../src/provider/http-exchange.ts";
import { createHttpProvider } from "../../src/provider/http-provider.ts";
import { orderFor } from "./support.ts";

const order = orderFor("mia@example.com");

function providerAnswering(fetcher: (request: Request) => Promise<Response>, timeoutMs = 200) {
  return createHttpProvider({ baseUrl: "https://psp.test/api", token: "t", timeoutMs, fetcher });
}

describe("HTTP adapter transport", () => {
  it("turns a thrown network error into unknown, never an exception", async () => {
    const provider = providerAnswering(async () => {
      throw new TypeError("connection reset by peer");
    });
    expect(await provider.send(order)).toMatchObject({
      kind: "unknown",
      why: "network_error",
      evidence: { httpStatus: null, error: "TypeError: connection reset by peer" },
    });
    expect(await provider.status(order)).toMatchObject({ kind: "unknown", why: "network_error" });
  });

  it("times out a provider that never answers", async () => {
    const provider = providerAnswering(() => new Promise<Response>(() => {}), 50);
    expect(await provider.send(order)).toMatchObject({ kind: "unknown", why: "timeout", evidence: { error: "timeout after 50 ms" } });
  });

  it("times out a body that stalls after the headers, keeping the status it saw", async () => {
    const stalled = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"status":')) });
    const provider = providerAnswering(async () => new Response(stalled, { status: 200 }), 50);
    expect(await provider.send(order)).toMatchObject({ kind: "unknown", why: "timeout", evidence: { httpStatus: 200 } });
  });

  it("stops reading a huge body and keeps only 2 KiB of it as evidence", async () => {
    const provider = providerAnswering(async () => new Response("x".repeat(200 * 1024), { status: 200 }));
    const sent = await provider.send(order);
    expect(sent).toMatchObject({ kind: "unknown", why: "body_too_large", evidence: { httpStatus: 200 } });
    expect(sent.evidence.body).toBe("x".repeat(evidenceBodyCharsMax));
  });

  it("keeps a long but valid answer as truncated text, and still classifies it", async () => {
    const body = JSON.stringify({ status: "processing", end_to_end_id: null, note: "n".repeat(3 * 1024) });
    const provider = providerAnswering(async () => new Response(body, { status: 201 }));
    const sent = await provider.send(order);
    expect(sent).toMatchObject({ kind: "accepted", status: "processing" });
    expect(sent.evidence.body).toBe(body.slice(0, evidenceBodyCharsMax));
  });

  it("keeps a short answer as parsed JSON evidence", async () => {
    const provider = providerAnswering(async () => Response.json({ code: "invalid_key" }, { status: 422 }));
    expect(await provider.send(order)).toMatchObject({
      kind: "rejected",
      code: "invalid_key",
      evidence: { body: { code: "invalid_key" } },
    });
  });

  it("does not follow a redirect: it is an answer this API never gives", async () => {
    const provider = providerAnswering(async (request) => {
      expect(request.redirect).toBe("manual");
      return new Response(null, { status: 307, headers: { location: "https://elsewhere.test/" } });
    });
    expect(await provider.status(order)).toMatchObject({ kind: "unknown", why: "http_307", evidence: { body: null } });
  });
});
