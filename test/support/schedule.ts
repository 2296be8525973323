// Scheduled transfers in tests: São Paulo dates relative to today, and the API calls around them.
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { saoPauloMidnightMs } from "../../src/saga/schedule.ts";
import { call, clientHeaders, createTransfer } from "./api.ts";

/** The São Paulo date `days` after today (negative: before); today by the wall clock unless `nowMs` says (test/support/clock.ts). */
export function saoPauloDayFromToday(days: number, nowMs = Date.now()): string {
  const today = saoPauloClock(nowMs).day;
  return saoPauloClock(saoPauloMidnightMs(today) + days * 86_400_000 + 12 * 3_600_000).day;
}

export const scheduledBody = (scheduledFor: string, amountCents = 2_500) => ({
  amount_cents: amountCents,
  pix_key: "100.000.001-08",
  pix_key_type: "cpf",
  description: "aluguel",
  scheduled_for: scheduledFor,
});

/** POST /v1/transfers with `scheduled_for` (TransferBody in support/api.ts names only the key fields). */
export function scheduleTransfer(accountId: string, body: ReturnType<typeof scheduledBody>, idempotencyKey?: string): Promise<Response> {
  return createTransfer(accountId, body, idempotencyKey);
}

export async function cancel(accountId: string, transferId: string): Promise<Response> {
  return call(`/v1/transfers/${transferId}/cancel`, { method: "POST", headers: await clientHeaders(accountId) });
}
