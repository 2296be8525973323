// The sandbox provider's response bodies (CONTRACT §4), served only when SANDBOX_PROVIDER=on:
// its payments as it holds them, an outage, and the PSP answer it gives. Beside the API's own
// (schemas.ts), from which the OpenAPI document is generated the same way.
import { z } from "zod";

const timestamp = z.iso.datetime().describe("RFC 3339 UTC time");
const cents = z.number().int().describe("Integer centavos");

export const sandboxPaymentSchema = z.strictObject({
  idempotency_key: z.string(),
  send_calls: z.number().int().nonnegative(),
  status_calls: z.number().int().nonnegative(),
  made: z.boolean().describe("Whether money actually left"),
  status: z.enum(["processing", "confirmed", "rejected", "not_found"]),
  end_to_end_id: z.string().nullable(),
});

export const sandboxPaymentListSchema = z.strictObject({ data: z.array(sandboxPaymentSchema) });

export const sandboxOutageSchema = z.strictObject({ outage_until: timestamp.describe("Until when the PSP API answers 503") });

export const providerAnswerSchema = z
  .looseObject({
    idempotency_key: z.string().optional(),
    amount_cents: cents.positive().optional(),
    status: z.enum(["processing", "confirmed", "rejected"]).optional(),
    end_to_end_id: z.string().nullable().optional(),
    code: z.string().nullable().optional(),
  })
  .describe("The PSP's answer: the payment ({ status, end_to_end_id, ... }), or { code } on a rejection or error");

export const sandboxClockSchema = z.strictObject({
  now: timestamp.describe("Business time: the wall clock plus `offset_ms`"),
  offset_ms: z.number().int().nonnegative().describe("How far the test clock is ahead of the wall clock"),
});
