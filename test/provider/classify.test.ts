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

type Case = { name: string; exchange: ProviderExchange; expected: Record<string, unknown> };

/** No answer at all is the same unknown for a send and for a status check. */
const noAnswer: Case[] = [
  { name: "a timeout is unknown", exchange: { kind: "timed_out" }, expected: { kind: "unknown", why: "timeout" } },
  { name: "a broken connection is unknown", exchange: { kind: "failed" }, expected: { kind: "unknown", why: "network_error" } },
];

describe("classifySend", () => {
  const cases: Case[] = [
    {
      name: "201 with a valid body is accepted: the provider holds the order",
      exchange: answered(201, json({ status: "processing", end_to_end_id: endToEndId })),
      expected: { kind: "accepted", status: "processing", endToEndId },
    },
    {
      name: "200 (a repeat) confirmed without an end-to-end id is accepted with a null id",
      exchange: answered(200, json({ status: "confirmed" })),
      expected: { kind: "accepted", status: "confirmed", endToEndId: null },
    },
    {
      name: "200 echoing our amount and key is accepted",
      exchange: answered(200, json({ status: "processing", amount_cents: 2500, idempotency_key: order.idempotencyKey })),
      expected: { kind: "accepted", status: "processing", endToEndId: null },
    },
    {
      name: "200 with another amount is unknown: the answer is about some other order",
      exchange: answered(200, json({ status: "confirmed", amount_cents: 2501 })),
      expected: { kind: "unknown", why: "contradicts_order" },
    },
    {
      name: "200 with another idempotency key is unknown",
      exchange: answered(200, json({ status: "confirmed", idempotency_key: "someone-else" })),
      expected: { kind: "unknown", why: "contradicts_order" },
    },
    {
      name: "200 that is not JSON is unknown: the Pix may have been made",
      exchange: answered(200),
      expected: { kind: "unknown", why: "malformed_body" },
    },
    {
      name: "200 with a status outside the API is unknown",
      exchange: answered(200, json({ status: "done" })),
      expected: { kind: "unknown", why: "malformed_body" },
    },
    {
      name: "200 with a malformed end-to-end id is unknown",
      exchange: answered(200, json({ status: "confirmed", end_to_end_id: "E123" })),
      expected: { kind: "unknown", why: "malformed_body" },
    },
    {
      name: "202 is not this API's answer: unknown",
      exchange: answered(202, json({ status: "processing" })),
      expected: { kind: "unknown", why: "http_202" },
    },
    {
      name: "a redirect is unknown, never followed",
      exchange: answered(302),
      expected: { kind: "unknown", why: "http_302" },
    },
    {
      name: "422 with a code is a rejection carrying that code",
      exchange: answered(422, json({ code: "invalid_key" })),
      expected: { kind: "rejected", code: "invalid_key" },
    },
    {
      name: "400 without a code is still a definitive rejection, coded by its status",
      exchange: answered(400, { kind: "not_json" }),
      expected: { kind: "rejected", code: "http_400" },
    },
    {
      name: "a 4xx code that is not a plain token is not trusted: coded by status",
      exchange: answered(422, json({ code: "<script>alert(1)</script>" })),
      expected: { kind: "rejected", code: "http_422" },
    },
    {
      name: "401 is unknown and an alert: our credentials were refused, not the order",
      exchange: answered(401, json({ code: "unauthorized" })),
      expected: { kind: "unknown", why: "http_401", alert: "credentials_refused" },
    },
    {
      name: "403 is unknown and an alert: our credentials were refused, not the order",
      exchange: answered(403, json({ code: "forbidden" })),
      expected: { kind: "unknown", why: "http_403", alert: "credentials_refused" },
    },
    {
      name: "408 is unknown: the provider gave up waiting, not on the order",
      exchange: answered(408, json({ code: "timeout" })),
      expected: { kind: "unknown", why: "http_408" },
    },
    {
      name: "409 is unknown: something already exists under this key",
      exchange: answered(409, json({ code: "idempotency_conflict" })),
      expected: { kind: "unknown", why: "http_409" },
    },
    {
      name: "429 is unknown: rate limited, not refused",
      exchange: answered(429, json({ code: "slow_down" })),
      expected: { kind: "unknown", why: "http_429" },
    },
    {
      name: "500 is unknown: the provider may have made the Pix before failing",
      exchange: answered(500, json({ code: "internal_error" })),
      expected: { kind: "unknown", why: "http_500" },
    },
    {
      name: "503 is unknown",
      exchange: answered(503),
      expected: { kind: "unknown", why: "http_503" },
    },
    ...noAnswer,
    {
      name: "an oversized 200 is unknown, not parsed",
      exchange: answered(200, { kind: "too_large" }),
      expected: { kind: "unknown", why: "body_too_large" },
    },
  ];

  for (const { name, exchange, expected } of cases) {
    it(name, () => {
      expect(classifySend(order, exchange, evidence)).toEqual({ ...expected, evidence });
    });
  }
});

describe("classifyStatus", () => {
  const cases: Case[] = [
    {
      name: "200 confirmed is confirmed, with its end-to-end id",
      exchange: answered(200, json({ status: "confirmed", end_to_end_id: endToEndId, code: null })),
      expected: { kind: "confirmed", endToEndId, returns: [] },
    },
    {
      name: "200 confirmed carries its returns, reasons from our words or the Pix codes",
      exchange: answered(
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
      expected: {
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
    },
    {
      name: "200 confirmed with returns above the amount is unknown: it is about another payment",
      exchange: answered(
        200,
        json({
          status: "confirmed",
          returns: [
            { id: "D1", amount_cents: 2000, reason: "fraud", at: "2026-01-01T13:00:00Z" },
            { id: "D2", amount_cents: 501, reason: "fraud", at: "2026-01-01T13:00:00Z" },
          ],
        }),
      ),
      expected: { kind: "unknown", why: "returns_exceed_amount" },
    },
    {
      name: "200 confirmed with a malformed return is unknown",
      exchange: answered(200, json({ status: "confirmed", returns: [{ id: "D 1;drop", amount_cents: 10, at: "2026-01-01T13:00:00Z" }] })),
      expected: { kind: "unknown", why: "malformed_body" },
    },
    {
      name: "200 rejected is rejected with the provider's code",
      exchange: answered(200, json({ status: "rejected", code: "beneficiary_refused" })),
      expected: { kind: "rejected", code: "beneficiary_refused" },
    },
    {
      name: "200 rejected without a code is still rejected: the status itself is definitive",
      exchange: answered(200, json({ status: "rejected" })),
      expected: { kind: "rejected", code: "unspecified" },
    },
    {
      name: "200 processing is processing",
      exchange: answered(200, json({ status: "processing", end_to_end_id: null })),
      expected: { kind: "processing" },
    },
    {
      name: "200 confirmed for another amount is unknown, never a settlement",
      exchange: answered(200, json({ status: "confirmed", amount_cents: 250 })),
      expected: { kind: "unknown", why: "contradicts_order" },
    },
    {
      name: "200 with junk is unknown",
      exchange: answered(200, json({ state: "ok" })),
      expected: { kind: "unknown", why: "malformed_body" },
    },
    {
      name: "404 with the API's own not_found body is not found, released after the grace window",
      exchange: answered(404, json({ code: "not_found" })),
      expected: { kind: "not_found", afterGrace: "release" },
    },
    {
      name: "404 that is not JSON (a gateway's page) is unknown",
      exchange: answered(404),
      expected: { kind: "unknown", why: "http_404_not_this_api" },
    },
    {
      name: "404 with another JSON body (a wrong base URL) is unknown",
      exchange: answered(404, json({ error: "route not found" })),
      expected: { kind: "unknown", why: "http_404_not_this_api" },
    },
    {
      name: "401 is unknown and an alert",
      exchange: answered(401),
      expected: { kind: "unknown", why: "http_401", alert: "credentials_refused" },
    },
    {
      name: "503 is unknown: ask again",
      exchange: answered(503),
      expected: { kind: "unknown", why: "http_503" },
    },
    {
      name: "a 4xx other than 404 is unknown: a status check cannot reject an order",
      exchange: answered(400, json({ code: "bad" })),
      expected: { kind: "unknown", why: "http_400" },
    },
    ...noAnswer,
  ];

  for (const { name, exchange, expected } of cases) {
    it(name, () => {
      expect(classifyStatus(order, exchange, evidence)).toEqual({ ...expected, evidence });
    });
  }
});
