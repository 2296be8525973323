// A careful operator working the needs_review queue: settles a transfer only when the
// provider's own record shows the money left, releases it otherwise. 503 (the saga object could
// not reach the database) is the same decision again; 409 after such a retry means the first
// attempt committed and its answer was lost.
import type { Pool } from "@neondatabase/serverless";
import { expect } from "vitest";
import { call, opsHeaders, sandboxPayment } from "../../support/api.ts";
import { tally } from "../../support/faults.ts";

export type Resolution = "sent" | "not_sent";

export async function resolveWithRetries(id: string, outcome: Resolution): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const response = await call(`/ops/transfers/${id}/resolve`, {
      method: "POST",
      headers: opsHeaders(),
      body: JSON.stringify({ outcome, note: `careful operator: the provider's record says ${outcome}` }),
    });
    await response.body?.cancel();
    await tally({ operations: 1, "http.5xx": response.status >= 500 ? 1 : 0 });
    if (response.status < 500 || attempt >= 8) return response.status;
    await new Promise((resolve) => setTimeout(resolve, 150 * attempt));
  }
}

/** Resolves every given transfer still in needs_review; returns each one's resolution. */
export async function resolveReviews(pool: Pool, transferIds: readonly string[]): Promise<Map<string, Resolution>> {
  const { rows } = await pool.query<{ id: string }>("SELECT id::text FROM transfers WHERE id::text = ANY($1) AND state = 'needs_review'", [
    transferIds,
  ]);
  const resolved = new Map<string, Resolution>();
  for (const { id } of rows) {
    const outcome: Resolution = (await sandboxPayment(id))?.made === true ? "sent" : "not_sent";
    expect(await resolveWithRetries(id, outcome), `resolve ${id} ${outcome}`).toBe(200);
    resolved.set(id, outcome);
  }
  await tally({ operator_resolutions: rows.length });
  return resolved;
}
