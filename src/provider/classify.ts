// The ONE place where the provider's HTTP answers become outcomes (CONTRACT §4). Everything here
// leans one way: when an answer does not prove what happened, it is `unknown`, because the saga
// keeps the hold and asks again on unknown, while a wrong "rejected" would release money that
// left and a wrong "accepted" would settle money that did not.
import { z } from "zod";
import { staticKeyOf } from "../pix/static-key.ts";
import type { NotFoundSettlement } from "../saga/answers.ts";
import { type ProviderReturn, returnsPerAnswerMax } from "../saga/returns.ts";
import type { PixOrder, ProviderAlert, ProviderEvidence, SendOutcome, StatusOutcome } from "./port.ts";
import { returnReasonOf } from "./return-reason.ts";

/** What one HTTP exchange produced, before any judgement. */
export type ProviderExchange = { kind: "answered"; httpStatus: number; body: AnswerBody } | { kind: "timed_out" } | { kind: "failed" };

export type AnswerBody = { kind: "json"; value: unknown } | { kind: "not_json" } | { kind: "too_large" };

/** BCB end-to-end id: `E` + ISPB (8) + yyyyMMddHHmm (12) + 11 alphanumerics = 32 characters. */
export const endToEndIdSchema = z.string().regex(/^E[0-9A-Za-z]{31}$/);
/** Provider codes end up in `failure_code` shown to clients: short and plain, or not trusted. */
const providerCodeSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/);

/** Fields a provider may echo back; when present they must match the order we sent. */
const echoedOrder = {
  amount_cents: z.number().int().optional(),
  idempotency_key: z.string().optional(),
  pix_key: z.string().max(140).optional(),
};

const sendAcceptedBodySchema = z.object({
  status: z.enum(["processing", "confirmed"]),
  end_to_end_id: endToEndIdSchema.nullable().optional(),
  ...echoedOrder,
});

const rejectionBodySchema = z.object({ code: providerCodeSchema });

/** The API's own not-found: only this body makes a 404 mean "never received" (CONTRACT §4). */
const notFoundBodySchema = z.object({ code: z.literal("not_found") });

/** A return's id keys its credit: short and plain, like the D… ids of the Pix arrangement. */
export const returnIdSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/);

export const returnSchema = z
  .object({
    id: returnIdSchema,
    amount_cents: z.number().int().positive(),
    reason: providerCodeSchema.nullable().optional(),
    at: z.iso.datetime({ offset: true }),
  })
  .transform((r): ProviderReturn => ({ id: r.id, amountCents: r.amount_cents, reason: returnReasonOf(r.reason), atMs: Date.parse(r.at) }));

const statusBodySchema = z.object({
  status: z.enum(["processing", "confirmed", "rejected"]),
  end_to_end_id: endToEndIdSchema.nullable().optional(),
  code: providerCodeSchema.nullable().optional(),
  returns: z.array(returnSchema).max(returnsPerAnswerMax).optional(),
  ...echoedOrder,
});

/** Returns that add up to more than was sent are about another payment, or a lie. */
export function returnsExceed(returns: readonly ProviderReturn[], amountCents: number): boolean {
  return returns.reduce((sum, r) => sum + r.amountCents, 0) > amountCents;
}

/** 200 on a repeat, 201 the first time: the provider holds the order. */
function isAcceptedStatus(httpStatus: number): boolean {
  return httpStatus === 200 || httpStatus === 201;
}

/**
 * 4xx that do not mean "no": 408 (the provider gave up waiting for us), 425 and 429 ("not now")
 * say nothing about the order; 409 says something already exists under this key, so the money
 * may have left under an earlier send. Releasing the hold on any of them could lose money.
 */
const inconclusiveClientStatuses: ReadonlySet<number> = new Set([408, 409, 425, 429]);

/**
 * 401 and 403 refuse our credentials, not the order: our misconfiguration, never the payment's
 * fate. Unknown (the hold stays, the deadline hands it to a person) and an alert.
 */
export function isCredentialsRefusal(httpStatus: number): boolean {
  return httpStatus === 401 || httpStatus === 403;
}

/**
 * Any other 4xx may be the provider refusing this order outright (bad key, bad request); it is
 * one only in the API's own words (`{ "code" }`, read by classifySend), since a gateway's HTML
 * 404 or an empty 400 from something in between proves nothing about the order.
 */
function isRefusalStatus(httpStatus: number): boolean {
  return httpStatus >= 400 && httpStatus < 500 && !inconclusiveClientStatuses.has(httpStatus) && !isCredentialsRefusal(httpStatus);
}

/**
 * What an answer that is not the one a classifier reads says: nothing about the order, only its
 * status; and refused credentials are also an operator's problem, so they raise an alert.
 */
export function inconclusiveStatus(httpStatus: number): { why: string; alert?: "credentials_refused" } {
  const why = `http_${httpStatus}`;
  return isCredentialsRefusal(httpStatus) ? { why, alert: "credentials_refused" } : { why };
}

/**
 * A key a provider names differs from the order's. Only a key read the way the API stores keys
 * counts: a spelling we cannot read proves nothing about where the money went.
 */
export function namesAnotherKey(raw: string | undefined, order: PixOrder): boolean {
  if (raw === undefined) return false;
  const key = staticKeyOf(raw.trim());
  return key.ok && key.pixKey !== order.pixKey;
}

/**
 * An answer that contradicts the order is about another order, or about money that left as
 * something else than was held: unknown either way (never success). Another amount or key is
 * the second, so it also raises the critical `order_mismatch` alert.
 */
export function contradiction(
  why: Contradiction | null,
  evidence: ProviderEvidence,
): { kind: "unknown"; why: string; evidence: ProviderEvidence; alert?: ProviderAlert } | null {
  if (why === null) return null;
  if (why === "order_mismatch") return { kind: "unknown", why: "contradicts_order", evidence, alert: "order_mismatch" };
  return { kind: "unknown", why: "contradicts_order", evidence };
}

/** Why an answer is not about the order: another order altogether, or another amount or key for it. */
export type Contradiction = "another_order" | "order_mismatch";

function contradictsOrder(
  body: { amount_cents?: number | undefined; idempotency_key?: string | undefined; pix_key?: string | undefined },
  order: PixOrder,
): Contradiction | null {
  if (body.idempotency_key !== undefined && body.idempotency_key !== order.idempotencyKey) return "another_order";
  if (body.amount_cents !== undefined && body.amount_cents !== order.amountCents) return "order_mismatch";
  return namesAnotherKey(body.pix_key, order) ? "order_mismatch" : null;
}

export type UsableAnswer = { usable: true; httpStatus: number; body: AnswerBody } | { usable: false; why: string };

/**
 * A timeout or a reset may hide a Pix that was made, and an oversized body is not this API
 * talking: none of them is an answer, so all are unknown.
 */
export function usableAnswer(exchange: ProviderExchange): UsableAnswer {
  if (exchange.kind === "timed_out") return { usable: false, why: "timeout" };
  if (exchange.kind === "failed") return { usable: false, why: "network_error" };
  if (exchange.body.kind === "too_large") return { usable: false, why: "body_too_large" };
  return { usable: true, httpStatus: exchange.httpStatus, body: exchange.body };
}

export function parseBody<T>(schema: z.ZodType<T>, body: AnswerBody): T | null {
  if (body.kind !== "json") return null;
  const parsed = schema.safeParse(body.value);
  return parsed.success ? parsed.data : null;
}

export function classifySend(order: PixOrder, exchange: ProviderExchange, evidence: ProviderEvidence): SendOutcome {
  const answer = usableAnswer(exchange);
  if (!answer.usable) return { kind: "unknown", why: answer.why, evidence };
  const { httpStatus, body } = answer;
  if (isAcceptedStatus(httpStatus)) {
    // A 2xx we cannot read may still mean the Pix was made: unknown, never success.
    const accepted = parseBody(sendAcceptedBodySchema, body);
    if (accepted === null) return { kind: "unknown", why: "malformed_body", evidence };
    const contradicted = contradiction(contradictsOrder(accepted, order), evidence);
    if (contradicted !== null) return contradicted;
    return { kind: "accepted", status: accepted.status, endToEndId: accepted.end_to_end_id ?? null, evidence };
  }
  if (isRefusalStatus(httpStatus)) {
    // Without the API's `{ code }` nothing says the order was refused: releasing on it could
    // release a Pix that left, while unknown only costs a status check.
    const rejection = parseBody(rejectionBodySchema, body);
    if (rejection === null) return { kind: "unknown", why: `http_${httpStatus}_not_this_api`, evidence };
    return { kind: "rejected", code: rejection.code, evidence };
  }
  // 5xx may have made the Pix before failing; 3xx and other 2xx are not this API's answers;
  // 401/403 say nothing about the order either, and raise the credentials alert.
  return { kind: "unknown", ...inconclusiveStatus(httpStatus), evidence };
}

/** How one provider's status answer is read before its body is judged. */
export interface StatusReading<Body> {
  /** The provider's own not-found body: only it says the order was never received. */
  notFoundBody: z.ZodType<unknown>;
  /** Why a 404 without that body says nothing (a gateway's page, a wrong base URL). */
  foreignNotFound: string;
  /** What the saga does once not_found outlasts the grace window. */
  afterGrace: NotFoundSettlement;
  body: z.ZodType<Body>;
}

/**
 * The reading every status check shares: an unusable exchange, a 404 in anyone's words but the
 * provider's, any other non-200 and a body that does not parse all say nothing about the order.
 * Answers the parsed body, or the outcome that ends the reading.
 */
export function readStatusAnswer<Body>(
  exchange: ProviderExchange,
  evidence: ProviderEvidence,
  reading: StatusReading<Body>,
): { body: Body } | { outcome: StatusOutcome } {
  const answer = usableAnswer(exchange);
  if (!answer.usable) return { outcome: { kind: "unknown", why: answer.why, evidence } };
  const { httpStatus, body } = answer;
  if (httpStatus === 404) {
    if (parseBody(reading.notFoundBody, body) === null) return { outcome: { kind: "unknown", why: reading.foreignNotFound, evidence } };
    return { outcome: { kind: "not_found", afterGrace: reading.afterGrace, evidence } };
  }
  // Anything but 200 (503, 429, 3xx...) tells nothing about the order: ask again later.
  if (httpStatus !== 200) return { outcome: { kind: "unknown", ...inconclusiveStatus(httpStatus), evidence } };
  const parsed = parseBody(reading.body, body);
  if (parsed === null) return { outcome: { kind: "unknown", why: "malformed_body", evidence } };
  return { body: parsed };
}

/** This API's own not-found means it never received the order: released after the grace window. */
const statusReading = {
  notFoundBody: notFoundBodySchema,
  foreignNotFound: "http_404_not_this_api",
  afterGrace: "release",
  body: statusBodySchema,
} satisfies StatusReading<unknown>;

export function classifyStatus(order: PixOrder, exchange: ProviderExchange, evidence: ProviderEvidence): StatusOutcome {
  const read = readStatusAnswer(exchange, evidence, statusReading);
  if ("outcome" in read) return read.outcome;
  const status = read.body;
  const contradicted = contradiction(contradictsOrder(status, order), evidence);
  if (contradicted !== null) return contradicted;
  const returns = status.returns ?? [];
  if (returnsExceed(returns, order.amountCents)) return { kind: "unknown", why: "returns_exceed_amount", evidence };
  switch (status.status) {
    case "confirmed":
      return { kind: "confirmed", endToEndId: status.end_to_end_id ?? null, returns, evidence };
    case "rejected":
      // Definitive even without a code; "unspecified" keeps failure_code non-empty.
      return { kind: "rejected", code: status.code ?? "unspecified", evidence };
    case "processing":
      return { kind: "processing", evidence };
  }
}
