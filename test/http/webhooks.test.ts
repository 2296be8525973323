// POST /webhooks/provider through the whole Worker: only a valid Standard Webhooks signature
// gets in; a signed webhook is 202 whatever it says, and one naming a transfer pokes its saga.
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signedWebhookHeaders } from "../../src/lib/webhook-signature.ts";
import { captureLogEvents, logsAbout, logsOf } from "../support/logs.ts";

const url = "http://example.com/webhooks/provider";
const secret = env.WEBHOOK_SECRET.split(" ")[0] ?? "";

function eventFor(idempotencyKey: string, status = "confirmed"): string {
  return JSON.stringify({ type: "pix.payment.updated", data: { idempotency_key: idempotencyKey, end_to_end_id: null, status } });
}

async function signedRequest(body: string, options: { timestampSeconds?: number; signingSecret?: string } = {}): Promise<Request> {
  const id = `msg_${crypto.randomUUID()}`;
  const timestampSeconds = options.timestampSeconds ?? Math.floor(Date.now() / 1000);
  const headers = await signedWebhookHeaders({ secret: options.signingSecret ?? secret, id, timestampSeconds, body });
  return new Request(url, { method: "POST", headers, body });
}

async function expectUnauthorized(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(await response.json()).toMatchObject({
    status: 401,
    type: expect.stringMatching(/unauthorized$/),
    title: expect.any(String),
    detail: expect.any(String),
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("POST /webhooks/provider", () => {
  it("answers 202 to a validly signed webhook and pokes the saga it names", async () => {
    const logs = captureLogEvents("provider_webhook");
    const transferId = crypto.randomUUID();
    const response = await exports.default.fetch(await signedRequest(eventFor(transferId)));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ received: true });
    await vi.waitFor(() => expect(logsAbout(logs, transferId)).toMatchObject([{ idempotency_key: transferId, outcome: "poked" }]));
  });

  it("answers 202 to a signed webhook whatever it claims, without deciding anything from it", async () => {
    const logs = captureLogEvents("provider_webhook");
    const transferId = crypto.randomUUID();
    const response = await exports.default.fetch(await signedRequest(eventFor(transferId, "rejected")));
    expect(response.status).toBe(202);
    await vi.waitFor(() => expect(logsAbout(logs, transferId)).toMatchObject([{ idempotency_key: transferId, outcome: "poked" }]));
  });

  it("answers 202 and pokes nothing for signed webhooks it cannot use", async () => {
    const logs = captureLogEvents("provider_webhook");
    const responses: Response[] = [];
    for (const body of [eventFor("not-a-transfer-id"), "not json", JSON.stringify({ type: "pix.payment.updated" })]) {
      const response = await exports.default.fetch(await signedRequest(body));
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({ received: true });
      responses.push(response);
    }
    expect(logsOf(logs, responses).map((record) => record.outcome)).toEqual(["ignored", "ignored", "ignored"]);
  });

  it("answers 401 and pokes nothing when the signature headers are missing", async () => {
    const logs = captureLogEvents("provider_webhook");
    const response = await exports.default.fetch(url, { method: "POST", body: eventFor(crypto.randomUUID()) });
    await expectUnauthorized(response);
    expect(logsOf(logs, [response])).toMatchObject([{ outcome: "rejected_missing_headers" }]);
  });

  it("answers 401 and pokes nothing when the signature is forged", async () => {
    const logs = captureLogEvents("provider_webhook");
    const forgedSecret = "whsec_Zm9yZ2VkLXNlY3JldC1mb3JnZWQtc2VjcmV0";
    const response = await exports.default.fetch(await signedRequest(eventFor(crypto.randomUUID()), { signingSecret: forgedSecret }));
    await expectUnauthorized(response);
    expect(logsOf(logs, [response])).toMatchObject([{ outcome: "rejected_bad_signature" }]);
  });

  it("answers 401 when the body was changed after signing", async () => {
    const signed = await signedRequest(eventFor(crypto.randomUUID()));
    const tampered = new Request(signed, { body: eventFor(crypto.randomUUID()) });
    await expectUnauthorized(await exports.default.fetch(tampered));
  });

  it("answers 401 to a timestamp more than 300 s old or ahead", async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    for (const timestampSeconds of [nowSeconds - 400, nowSeconds + 400]) {
      await expectUnauthorized(await exports.default.fetch(await signedRequest(eventFor(crypto.randomUUID()), { timestampSeconds })));
    }
  });

  it("answers 413 to a body over 16 KiB before verifying anything", async () => {
    const body = JSON.stringify({
      type: "pix.payment.updated",
      data: { idempotency_key: crypto.randomUUID(), pad: "x".repeat(17 * 1024) },
    });
    const response = await exports.default.fetch(await signedRequest(body));
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("treats a redelivered webhook (same webhook-id) as harmless: 202 again", async () => {
    const signed = await signedRequest(eventFor(crypto.randomUUID()));
    expect((await exports.default.fetch(signed.clone())).status).toBe(202);
    expect((await exports.default.fetch(signed)).status).toBe(202);
  });
});
