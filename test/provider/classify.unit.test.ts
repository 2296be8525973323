// Every class of provider answer, with the reason it is that class (CONTRACT §4).
import { describe, expect, it } from "vitest";
import { type AnswerBody, classifySend, classifyStatus, type ProviderExchange } from "../../src/provider/classify.ts";
import type { PixOrder, ProviderEvidence } from "../../src/provider/port.ts";

const order: PixOrder = {
  idempotencyKey: "2f0e4c1a-6a53-4a8e-9d0b-0a3b8f1d2c11",
  amountCents: 2500,
  pixKey: "ana@example.com",
  pixKeyType: "email",
  description: null,
};
const evidence: ProviderEvidence = { httpStatus: null, durationMs: 12, body: null, error: null };
const endToEndId = "E99999999202601011200AbCdEfGhIjK";

function json(value: unknown): AnswerBody {
  return { kind: "json", value };
}
function answered(httpStatus: number, body: AnswerBody = { kind: "not_json" }): ProviderExchange {
  return { kind: "answered", httpStatus, body };
}

/** One row per answer: what the test says, what the provider answered, and the class it must get. */
type Case = [name: string, exchange: ProviderExchange, expected: Record<string, unknown>];

// The classes most rows expect, so that each row fits on its line.
function unknown(why: string): Record<string, unknown> {
  return { kind: "unknown", why };
}
function credentialsRefused(why: string): Record<string, unknown> {
  return { kind: "unknown", why, alert: "credentials_refused" };
}
/** Another amount or key than the order's: unknown, and the critical alert. */
const orderMismatch = { kind: "unknown", why: "contradicts_order", alert: "order_mismatch" };
function rejected(code: string): Record<string, unknown> {
  return { kind: "rejected", code };
}

/** No answer at all is the same unknown for a send and for a status check. */
const noAnswer: Case[] = [
  ["a timeout is unknown", { kind: "timed_out" }, unknown("timeout")],
  ["a broken connection is unknown", { kind: "failed" }, unknown("network_error")],
];

describe("classifySend", () => {
  const cases: Case[] = [
    [
      "201 with a valid body is accepted: the provider holds the order",
      answered(201, json({ status: "processing", end_to_end_id: endToEndId })),
      { kind: "accepted", status: "processing", endToEndId },
    ],
    [
      "200 (a repeat) confirmed without an end-to-end id is accepted with a null id",
      answered(200, json({ status: "confirmed" })),
      { kind: "accepted", status: "confirmed", endToEndId: null },
    ],
    [
      "200 echoing our amount and key is accepted",
      answered(200, json({ status: "processing", amount_cents: 2500, idempotency_key: order.idempotencyKey })),
      { kind: "accepted", status: "processing", endToEndId: null },
    ],
    [
      "200 with another amount is unknown and a critical alert: money may leave as something else than was held",
      answered(200, json({ status: "confirmed", amount_cents: 2501 })),
      orderMismatch,
    ],
    [
      "200 naming another key is unknown and a critical alert",
      answered(200, json({ status: "processing", pix_key: "mule@example.com" })),
      orderMismatch,
    ],
    [
      "200 naming our key in another spelling is accepted",
      answered(200, json({ status: "processing", pix_key: " Ana@Example.com" })),
      { kind: "accepted", status: "processing", endToEndId: null },
    ],
    [
      "200 with another idempotency key is unknown: the answer is about some other order, no alert",
      answered(200, json({ status: "confirmed", idempotency_key: "someone-else" })),
      unknown("contradicts_order"),
    ],
    ["200 that is not JSON is unknown: the Pix may have been made", answered(200), unknown("malformed_body")],
    ["200 with a status outside the API is unknown", answered(200, json({ status: "done" })), unknown("malformed_body")],
    [
      "200 with a malformed end-to-end id is unknown",
      answered(200, json({ status: "confirmed", end_to_end_id: "E123" })),
      unknown("malformed_body"),
    ],
    ["202 is not this API's answer: unknown", answered(202, json({ status: "processing" })), unknown("http_202")],
    ["a redirect is unknown, never followed", answered(302), unknown("http_302")],
    ["422 with a code is a rejection carrying that code", answered(422, json({ code: "invalid_key" })), rejected("invalid_key")],
    ["400 without the API's code (an empty body) is unknown, not a refusal", answered(400), unknown("http_400_not_this_api")],
    ["404 that is a gateway's HTML page is unknown, not a refusal", answered(404, { kind: "not_json" }), unknown("http_404_not_this_api")],
    ["422 with JSON that is not the API's error body is unknown", answered(422, json({ error: "nope" })), unknown("http_422_not_this_api")],
    [
      "a 4xx code that is not a plain token is not trusted: unknown",
      answered(422, json({ code: "<script>alert(1)</script>" })),
      unknown("http_422_not_this_api"),
    ],
    [
      "401 is unknown and an alert: our credentials were refused, not the order",
      answered(401, json({ code: "unauthorized" })),
      credentialsRefused("http_401"),
    ],
    [
      "403 is unknown and an alert: our credentials were refused, not the order",
      answered(403, json({ code: "forbidden" })),
      credentialsRefused("http_403"),
    ],
    ["408 is unknown: the provider gave up waiting, not on the order", answered(408, json({ code: "timeout" })), unknown("http_408")],
    ["409 is unknown: something already exists under this key", answered(409, json({ code: "idempotency_conflict" })), unknown("http_409")],
    ["429 is unknown: rate limited, not refused", answered(429, json({ code: "slow_down" })), unknown("http_429")],
    [
      "500 is unknown: the provider may have made the Pix before failing",
      answered(500, json({ code: "internal_error" })),
      unknown("http_500"),
    ],
    ["503 is unknown", answered(503), unknown("http_503")],
    ...noAnswer,
    ["an oversized 200 is unknown, not parsed", answered(200, { kind: "too_large" }), unknown("body_too_large")],
  ];

  for (const [name, exchange, expected] of cases) {
    it(name, () => {
      expect(classifySend(order, exchange, evidence)).toEqual({ ...expected, evidence });
    });
  }
});

describe("classifyStatus", () => {
  const cases: Case[] = [
    [
      "200 confirmed is confirmed, with its end-to-end id",
      answered(200, json({ status: "confirmed", end_to_end_id: endToEndId, code: null })),
      { kind: "confirmed", endToEndId, returns: [] },
    ],
    [
      "200 confirmed carries its returns, reasons from our words or the Pix codes",
      answered(
        200,
        json({
          status: "confirmed",
          end_to_end_id: endToEndId,
          returns: [
            { id: "D99999999202601011300AbCdEfGhIjK", amount_cents: 1000, reason: "returned_by_recipient", at: "2026-01-01T13:00:00Z" },
            { id: "D99999999202601011400AbCdEfGhIjK", amount_cents: 500, reason: "FR01", at: "2026-01-01T11:00:00-03:00" },
          ],
        }),
      ),
      {
        kind: "confirmed",
        endToEndId,
        returns: [
          {
            id: "D99999999202601011300AbCdEfGhIjK",
            amountCents: 1000,
            reason: "returned_by_recipient",
            atMs: Date.parse("2026-01-01T13:00:00Z"),
          },
          { id: "D99999999202601011400AbCdEfGhIjK", amountCents: 500, reason: "fraud", atMs: Date.parse("2026-01-01T14:00:00Z") },
        ],
      },
    ],
    [
      "200 confirmed with returns above the amount is unknown: it is about another payment",
      answered(
        200,
        json({
          status: "confirmed",
          returns: [
            { id: "D1", amount_cents: 2000, reason: "fraud", at: "2026-01-01T13:00:00Z" },
            { id: "D2", amount_cents: 501, reason: "fraud", at: "2026-01-01T13:00:00Z" },
          ],
        }),
      ),
      unknown("returns_exceed_amount"),
    ],
    [
      "200 confirmed with a malformed return is unknown",
      answered(200, json({ status: "confirmed", returns: [{ id: "D 1;drop", amount_cents: 10, at: "2026-01-01T13:00:00Z" }] })),
      unknown("malformed_body"),
    ],
    [
      "200 rejected is rejected with the provider's code",
      answered(200, json({ status: "rejected", code: "beneficiary_refused" })),
      rejected("beneficiary_refused"),
    ],
    [
      "200 rejected without a code is still rejected: the status itself is definitive",
      answered(200, json({ status: "rejected" })),
      rejected("unspecified"),
    ],
    ["200 processing is processing", answered(200, json({ status: "processing", end_to_end_id: null })), { kind: "processing" }],
    [
      "200 confirmed for another amount is unknown, never a settlement, and a critical alert",
      answered(200, json({ status: "confirmed", amount_cents: 250 })),
      orderMismatch,
    ],
    [
      "200 confirmed to another key is unknown and a critical alert",
      answered(200, json({ status: "confirmed", pix_key: "mule@example.com" })),
      orderMismatch,
    ],
    ["200 with junk is unknown", answered(200, json({ state: "ok" })), unknown("malformed_body")],
    [
      "404 with the API's own not_found body is not found, released after the grace window",
      answered(404, json({ code: "not_found" })),
      { kind: "not_found", afterGrace: "release" },
    ],
    ["404 that is not JSON (a gateway's page) is unknown", answered(404), unknown("http_404_not_this_api")],
    [
      "404 with another JSON body (a wrong base URL) is unknown",
      answered(404, json({ error: "route not found" })),
      unknown("http_404_not_this_api"),
    ],
    ["401 is unknown and an alert", answered(401), credentialsRefused("http_401")],
    ["503 is unknown: ask again", answered(503), unknown("http_503")],
    ["a 4xx other than 404 is unknown: a status check cannot reject an order", answered(400, json({ code: "bad" })), unknown("http_400")],
    ...noAnswer,
  ];

  for (const [name, exchange, expected] of cases) {
    it(name, () => {
      expect(classifyStatus(order, exchange, evidence)).toEqual({ ...expected, evidence });
    });
  }
});
