// A careful operator working the needs_review queue: settles a transfer only when the
// provider's own record shows the money left, releases it otherwise. 503 with Retry-After (the
// saga object could not reach the database; any other 5xx fails the test) is the same decision again; 409 after such a retry may mean the first
// attempt committed and its answer was lost, which the operator checks in the history.
import type { Pool } from "@neondatabase/serverless";
import { expect } from "vitest";
import { sleep } from "../../../src/lib/sleep.ts";
import { personCall, testOperatorEmail } from "../../support/access.ts";
import { opsCall, sandboxPayment } from "../../support/api.ts";
import { tally } from "../../support/faults.ts";
import { isRetryableFault, serverErrorCounters } from "./answers.ts";

export type Resolution = "sent" | "not_sent";

interface HistoryEntry {
  from: string | null;
  actor: string;
  evidence: { operator_note?: string } | null;
}

/** Whether the transfer's history holds this operator's decision, taken from needs_review. */
async function decisionRecorded(id: string, note: string): Promise<boolean> {
  const response = await opsCall(`/ops/transfers/${id}`);
  if (response.status !== 200) return false;
  const story = await response.json<{ history: HistoryEntry[] }>();
  return story.history.some(
    (entry) => entry.actor === testOperatorEmail && entry.from === "needs_review" && entry.evidence?.operator_note === note,
  );
}

/**
 * Resolves, retrying a 5xx as the same decision. A 409 after a 5xx is ambiguous (the first
 * attempt may have committed and lost its answer), so the operator reads the transfer: if the
 * history holds this very decision, it took effect, and counts as the 200 it would have been.
 */
export async function resolveWithRetries(id: string, outcome: Resolution): Promise<number> {
  const note = `careful operator: the provider's record says ${outcome} (${crypto.randomUUID()})`;
  let answerLost = false;
  for (let attempt = 1; ; attempt++) {
    // A person: `sent` is not the machine's to say (CONTRACT §5).
    const response = await personCall(`/ops/transfers/${id}/resolve`, {
      method: "POST",
      body: JSON.stringify({ outcome, note }),
    });
    await response.body?.cancel();
    await tally({ operations: 1, ...serverErrorCounters(response) });
    // A fault is 503 with Retry-After (CONTRACT §5 routes fail like the client's): never a 500.
    if (response.status >= 500) expect(isRetryableFault(response), `resolve ${id} answered ${response.status}`).toBe(true);
    if (response.status === 409 && answerLost && (await decisionRecorded(id, note))) {
      await tally({ "resolve.answer_lost_then_confirmed": 1 });
      return 200;
    }
    if (response.status < 500 || attempt >= 8) return response.status;
    answerLost = true;
    await sleep(150 * attempt);
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
