// Alert delivery: signed like our incoming webhooks, retried with doubling delays on passing
// trouble, stopped by a definitive refusal, bounded in tries, and never throwing.
import { describe, expect, it } from "vitest";
import { alertAttemptsMax, type DeliveryResult, deliverAlert, type Fetcher } from "../../src/alerts/deliver.ts";
import { verifyWebhook } from "../../src/lib/webhook-signature.ts";

const secret = "whsec_dGVzdC1hbGVydC1zZWNyZXQtMDEyMzQ1Njc4OQ==";
const body = JSON.stringify({ type: "transfer.needs_review", data: { transfer_id: "t-1" } });
const nowMs = 1_800_000_000_000;

/** A receiver that answers from a script (a status, or a thrown network error) and keeps what it got. */
function scriptedReceiver(answers: (number | Error)[]): { fetcher: Fetcher; requests: Request[] } {
  const requests: Request[] = [];
  const fetcher: Fetcher = async (request) => {
    requests.push(request);
    const answer = answers[requests.length - 1] ?? 200;
    if (answer instanceof Error) throw answer;
    return new Response(null, { status: answer });
  };
  return { fetcher, requests };
}

async function deliver(answers: (number | Error)[]): Promise<{ result: DeliveryResult; requests: Request[]; sleptMs: number[] }> {
  const { fetcher, requests } = scriptedReceiver(answers);
  const sleptMs: number[] = [];
  const result = await deliverAlert({
    url: "https://alerts.example/pix",
    secret,
    webhookId: "alert_needs_review_t-1",
    body,
    fetcher,
    sleep: async (delayMs) => void sleptMs.push(delayMs),
    nowMs: () => nowMs,
  });
  return { result, requests, sleptMs };
}

describe("deliverAlert", () => {
  it("POSTs the body with Standard Webhooks headers that verify against the secret", async () => {
    const { result, requests } = await deliver([204]);
    expect(result).toEqual({ outcome: "delivered", attempts: 1, status: 204 });
    const request = requests[0];
    if (!request) throw new Error("no request");
    expect(request.method).toBe("POST");
    expect(request.url).toBe("https://alerts.example/pix");
    expect(request.headers.get("content-type")).toBe("application/json");
    const rawBody = new Uint8Array(await request.arrayBuffer());
    expect(new TextDecoder().decode(rawBody)).toBe(body);
    const verified = await verifyWebhook({ secrets: secret, headers: request.headers, rawBody, nowSeconds: nowMs / 1000 });
    expect(verified).toEqual({ ok: true });
  });

  it("retries 5xx, 429 and network errors with doubling delays, keeping one webhook-id", async () => {
    const { result, requests, sleptMs } = await deliver([503, new TypeError("connection reset"), 429, 200]);
    expect(result).toEqual({ outcome: "delivered", attempts: 4, status: 200 });
    expect(sleptMs).toEqual([1_000, 2_000, 4_000]);
    expect(new Set(requests.map((r) => r.headers.get("webhook-id")))).toEqual(new Set(["alert_needs_review_t-1"]));
  });

  it("stops at a definitive refusal (a 4xx other than 408/425/429)", async () => {
    const { result, requests, sleptMs } = await deliver([401]);
    expect(result).toEqual({ outcome: "refused", attempts: 1, status: 401 });
    expect(requests).toHaveLength(1);
    expect(sleptMs).toEqual([]);
  });

  it("gives up after a bounded number of tries, without throwing", async () => {
    const { result, requests, sleptMs } = await deliver(Array.from({ length: 10 }, () => new Error("receiver down")));
    expect(result).toEqual({ outcome: "gave_up", attempts: alertAttemptsMax, lastProblem: "Error: receiver down" });
    expect(requests).toHaveLength(alertAttemptsMax);
    expect(sleptMs).toEqual([1_000, 2_000, 4_000, 8_000]);
  });
});
