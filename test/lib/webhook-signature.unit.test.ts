// Standard Webhooks signing and verification: the published vector, forgeries, replay windows,
// several signatures, other schemes, secret rotation, and exact-bytes verification.
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook } from "../../src/lib/webhook-signature.ts";

// The Standard Webhooks reference vector: what any receiver library computes for these inputs.
const vector = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestampSeconds: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const otherSecret = "whsec_dGVzdC13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5";

function headersOf(input: { id?: string; timestamp?: string; signature?: string }): Headers {
  const headers = new Headers();
  if (input.id !== undefined) headers.set("webhook-id", input.id);
  if (input.timestamp !== undefined) headers.set("webhook-timestamp", input.timestamp);
  if (input.signature !== undefined) headers.set("webhook-signature", input.signature);
  return headers;
}

const vectorHeaders = (signature = vector.signature): Headers =>
  headersOf({ id: vector.id, timestamp: String(vector.timestampSeconds), signature });
const vectorBody = new TextEncoder().encode(vector.body);

describe("signWebhook", () => {
  it("reproduces the Standard Webhooks reference vector", async () => {
    expect(await signWebhook(vector)).toBe(vector.signature);
  });
});

describe("verifyWebhook", () => {
  it("accepts the reference vector at its own timestamp", async () => {
    const result = await verifyWebhook({
      secrets: vector.secret,
      headers: vectorHeaders(),
      rawBody: vectorBody,
      nowSeconds: vector.timestampSeconds,
    });
    expect(result).toEqual({ ok: true });
  });

  it("rejects a signature made with another secret", async () => {
    const forged = await signWebhook({ ...vector, secret: otherSecret });
    const result = await verifyWebhook({
      secrets: vector.secret,
      headers: vectorHeaders(forged),
      rawBody: vectorBody,
      nowSeconds: vector.timestampSeconds,
    });
    expect(result).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("rejects a valid signature moved onto another webhook id", async () => {
    const headers = headersOf({ id: "msg_other", timestamp: String(vector.timestampSeconds), signature: vector.signature });
    expect(await verifyWebhook({ secrets: vector.secret, headers, rawBody: vectorBody, nowSeconds: vector.timestampSeconds })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("accepts a timestamp exactly 300 s old or ahead, and rejects 301 s either way", async () => {
    const at = (nowSeconds: number) => verifyWebhook({ secrets: vector.secret, headers: vectorHeaders(), rawBody: vectorBody, nowSeconds });
    expect(await at(vector.timestampSeconds + 300)).toEqual({ ok: true });
    expect(await at(vector.timestampSeconds - 300)).toEqual({ ok: true });
    expect(await at(vector.timestampSeconds + 301)).toEqual({ ok: false, reason: "stale_timestamp" });
    expect(await at(vector.timestampSeconds - 301)).toEqual({ ok: false, reason: "stale_timestamp" });
  });

  it("accepts when any one of several space-separated signatures matches", async () => {
    const headers = vectorHeaders(`v1,bm9wZQ== v1,${"A".repeat(44)} ${vector.signature}`);
    expect(await verifyWebhook({ secrets: vector.secret, headers, rawBody: vectorBody, nowSeconds: vector.timestampSeconds })).toEqual({
      ok: true,
    });
  });

  it("ignores schemes other than v1, even carrying the right MAC", async () => {
    const headers = vectorHeaders(vector.signature.replace("v1,", "v1a,"));
    expect(await verifyWebhook({ secrets: vector.secret, headers, rawBody: vectorBody, nowSeconds: vector.timestampSeconds })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("accepts either secret during a rotation", async () => {
    const secrets = `${otherSecret} ${vector.secret}`;
    const signedWithNew = await signWebhook({ ...vector, secret: otherSecret });
    for (const signature of [vector.signature, signedWithNew]) {
      expect(
        await verifyWebhook({ secrets, headers: vectorHeaders(signature), rawBody: vectorBody, nowSeconds: vector.timestampSeconds }),
      ).toEqual({
        ok: true,
      });
    }
  });

  it("rejects the same JSON re-serialised: only the exact bytes verify", async () => {
    const reserialised = new TextEncoder().encode(JSON.stringify(JSON.parse(vector.body)));
    expect(
      await verifyWebhook({ secrets: vector.secret, headers: vectorHeaders(), rawBody: reserialised, nowSeconds: vector.timestampSeconds }),
    ).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("rejects a request missing any of the three headers", async () => {
    const timestamp = String(vector.timestampSeconds);
    for (const headers of [
      headersOf({ timestamp, signature: vector.signature }),
      headersOf({ id: vector.id, signature: vector.signature }),
      headersOf({ id: vector.id, timestamp }),
    ]) {
      expect(await verifyWebhook({ secrets: vector.secret, headers, rawBody: vectorBody, nowSeconds: vector.timestampSeconds })).toEqual({
        ok: false,
        reason: "missing_headers",
      });
    }
  });

  it("rejects a timestamp that is not Unix seconds", async () => {
    const headers = headersOf({ id: vector.id, timestamp: "2021-02-25T15:02:10Z", signature: vector.signature });
    expect(await verifyWebhook({ secrets: vector.secret, headers, rawBody: vectorBody, nowSeconds: vector.timestampSeconds })).toEqual({
      ok: false,
      reason: "bad_timestamp",
    });
  });

  it("bounds the work: more than eight signatures are refused unchecked", async () => {
    const headers = vectorHeaders(Array.from({ length: 9 }, () => vector.signature).join(" "));
    expect(await verifyWebhook({ secrets: vector.secret, headers, rawBody: vectorBody, nowSeconds: vector.timestampSeconds })).toEqual({
      ok: false,
      reason: "too_many_signatures",
    });
  });

  it("refuses everything when WEBHOOK_SECRET is empty or malformed", async () => {
    for (const secrets of ["", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", `${vector.secret} whsec_!!!`]) {
      expect(await verifyWebhook({ secrets, headers: vectorHeaders(), rawBody: vectorBody, nowSeconds: vector.timestampSeconds })).toEqual({
        ok: false,
        reason: "secret_misconfigured",
      });
    }
  });
});
