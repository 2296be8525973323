// Calls the Worker makes on its own (CONTRACT §1): events, alerts, JWKS and Access keys, the
// provider. None follows a redirect (a 3xx is a failure, and the next address never sees our
// request), and none reads more than 64 KiB of an answer (lib/capped-body.ts, the one reader).
import { describe, expect, it } from "vitest";
import { deliverAlert } from "../../src/alerts/deliver.ts";
import { JwksCache } from "../../src/auth/jwks.ts";
import { sendEvent } from "../../src/events/send.ts";
import { answerBytesMax, readCappedText } from "../../src/lib/capped-body.ts";
import { createHttpProvider } from "../../src/provider/http-provider.ts";
import { orderFor } from "../provider/support.ts";

const secret = "whsec_dGVzdC1vdXRib3VuZC1zZWNyZXQtMDEyMzQ1Njc4OQ==";
const chunkBytes = 4 * 1024;

/** An endless body that counts what was pulled from it: a reader that stops shows a bounded count. */
function endlessBody(): { body: ReadableStream<Uint8Array>; pulledBytes: () => number } {
  let pulled = 0;
  const chunk = new TextEncoder().encode("x".repeat(chunkBytes));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { body, pulledBytes: () => pulled };
}

const redirect = () => new Response(null, { status: 302, headers: { location: "https://elsewhere.example/steal" } });

const event = {
  id: "evt_1",
  transferId: crypto.randomUUID(),
  sequence: 1,
  type: "transfer.updated",
  occurredAt: "2026-12-01T06:00:00Z",
  occurredAtMs: 0,
  data: {},
  attempts: 0,
  nextAttemptAtMs: null,
  parked: false,
};

describe("the capped reader", () => {
  it("reads a small answer whole", async () => {
    expect(await readCappedText(new Response("héllo"))).toEqual({ text: "héllo", tooLarge: false });
  });

  it("stops at 64 KiB of an endless answer", async () => {
    const endless = endlessBody();
    const read = await readCappedText(new Response(endless.body));
    expect(read.tooLarge).toBe(true);
    expect(endless.pulledBytes()).toBeLessThanOrEqual(answerBytesMax + 2 * chunkBytes);
  });
});

describe("outbound events", () => {
  it("do not follow a redirect: the attempt fails and is retried later", async () => {
    const requests: Request[] = [];
    const outcome = await sendEvent(event, {
      url: "https://backend.example/events",
      secret,
      nowMs: Date.now,
      fetcher: async (request) => {
        requests.push(request);
        return redirect();
      },
    });
    expect(requests.map((r) => r.redirect)).toEqual(["manual"]);
    expect(outcome).toMatchObject({ delivered: false, httpStatus: 302 });
  });

  it("read at most 64 KiB of a refusal's body", async () => {
    const endless = endlessBody();
    const outcome = await sendEvent(event, {
      url: "https://backend.example/events",
      secret,
      nowMs: Date.now,
      fetcher: async () => new Response(endless.body, { status: 500 }),
    });
    expect(outcome).toMatchObject({ delivered: false, httpStatus: 500 });
    expect(endless.pulledBytes()).toBeLessThanOrEqual(answerBytesMax + 2 * chunkBytes);
  });
});

describe("ops alerts", () => {
  it("do not follow a redirect: it is a refusal", async () => {
    const requests: Request[] = [];
    const result = await deliverAlert({
      url: "https://alerts.example/pix",
      secret,
      webhookId: "alert_1",
      body: "{}",
      fetcher: async (request) => {
        requests.push(request);
        return redirect();
      },
      sleep: async () => {},
      nowMs: Date.now,
    });
    expect(requests.map((r) => r.redirect)).toEqual(["manual"]);
    expect(result).toEqual({ outcome: "refused", attempts: 1, status: 302 });
  });
});

describe("JWKS and Access keys", () => {
  it("do not follow a redirect: no keys come from it", async () => {
    const inits: RequestInit[] = [];
    const cache = new JwksCache("https://issuer.example/jwks.json", async (_url, init) => {
      inits.push(init);
      return redirect();
    });
    expect(await cache.lookup({ alg: "RS256", kid: "k1" }, Date.now())).toEqual({ ok: false, failure: "keys_unavailable" });
    expect(inits.map((init) => init.redirect)).toEqual(["manual"]);
  });

  it("read at most 64 KiB of a key set", async () => {
    const endless = endlessBody();
    const cache = new JwksCache("https://issuer.example/jwks.json", async () => new Response(endless.body));
    expect(await cache.lookup({ alg: "RS256", kid: "k1" }, Date.now())).toEqual({ ok: false, failure: "keys_unavailable" });
    expect(endless.pulledBytes()).toBeLessThanOrEqual(answerBytesMax + 2 * chunkBytes);
  });
});

describe("the provider", () => {
  it("reads at most 64 KiB of a statement page", async () => {
    const endless = endlessBody();
    const provider = createHttpProvider({
      baseUrl: "https://psp.example/api",
      token: "t",
      timeoutMs: 2_000,
      fetcher: async () => new Response(endless.body, { status: 200 }),
    });
    const outcome = await provider.statement({ fromMs: Date.now() - 60_000, toMs: Date.now() });
    expect(outcome.complete).toBe(false);
    expect(endless.pulledBytes()).toBeLessThanOrEqual(answerBytesMax + 2 * chunkBytes);
    // The same reader serves a send.
    expect((await provider.send(orderFor("mia@example.com"))).kind).toBe("unknown");
  });
});
