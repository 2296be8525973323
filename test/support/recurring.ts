// Recurring transfers in tests: the request body, the API calls around it, and the rows behind it.
import type { Pool } from "@neondatabase/serverless";
import { call, clientHeaders } from "./api.ts";
import { saoPauloDayFromToday } from "./schedule.ts";

export const recurringBody = (overrides: Record<string, unknown> = {}) => ({
  amount_cents: 2_500,
  pix_key: "100.000.001-08",
  pix_key_type: "cpf",
  description: "mesada",
  first_date: saoPauloDayFromToday(1),
  frequency: "monthly",
  count: 3,
  ...overrides,
});

export async function createRecurring(accountId: string, body: unknown, idempotencyKey: string = crypto.randomUUID()): Promise<Response> {
  return call("/v1/recurring-transfers", {
    method: "POST",
    headers: await clientHeaders(accountId, { "idempotency-key": idempotencyKey }),
    body: JSON.stringify(body),
  });
}

export async function getRecurring(accountId: string, id: string): Promise<Response> {
  return call(`/v1/recurring-transfers/${id}`, { headers: await clientHeaders(accountId) });
}

export async function listRecurring(accountId: string, query = ""): Promise<Response> {
  return call(`/v1/recurring-transfers${query}`, { headers: await clientHeaders(accountId) });
}

export async function cancelRecurring(accountId: string, id: string): Promise<Response> {
  return call(`/v1/recurring-transfers/${id}/cancel`, { method: "POST", headers: await clientHeaders(accountId) });
}

/** How many recurrences an account has: a refused request must leave it as it was. */
export async function recurrenceCount(pool: Pool, accountId: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM recurring_transfers WHERE account_id = $1", [accountId]);
  return Number(rows[0]?.n ?? 0);
}
