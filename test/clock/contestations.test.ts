// Contestations on the test clock (CONTRACT §2 "Contestations", §4 "Test clock"): the 80-day
// window after completion and the 11-day deadline are business time. The completion counts at
// the business time it happened at, not moved forward by later advances. Past the deadline
// without a decision, the operators are alerted within seconds of the advance, once.
import { afterEach, describe, expect, it, vi } from "vitest";
import { opsContestationSchema } from "../../src/contract/ops-schemas.ts";
import { sleep } from "../../src/lib/sleep.ts";
import { personCall } from "../support/access.ts";
import { call, clientHeaders, finishedTransfer, fundedAccount, opsCall, waitForFinalState } from "../support/api.ts";
import { advanceClock, businessNow } from "../support/clock.ts";
import { contest, contested } from "../support/contestations.ts";
import { captureLogEvents } from "../support/logs.ts";

const dayMs = 86_400_000;

afterEach(() => {
  vi.restoreAllMocks();
});

async function completed(accountId: string) {
  const pixKey = `payee-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const final = await finishedTransfer(accountId, { amount_cents: 800, pix_key: pixKey, pix_key_type: "email" });
  expect(final.state).toBe("completed");
  return final;
}

/** A Pix the provider never confirms, settled by a person: the provider refuses its contestation, which stays open. */
async function completedByAPerson(accountId: string) {
  const created = await (
    await call("/v1/transfers", {
      method: "POST",
      headers: await clientHeaders(accountId, { "idempotency-key": crypto.randomUUID() }),
      body: JSON.stringify({ amount_cents: 600, pix_key: "processing@sandbox.test", pix_key_type: "email" }),
    })
  ).json<{ id: string }>();
  expect((await waitForFinalState(accountId, created.id)).state).toBe("needs_review");
  const resolved = await personCall(`/ops/transfers/${created.id}/resolve`, {
    method: "POST",
    body: JSON.stringify({ outcome: "sent", note: "The PSP's statement shows it paid" }),
  });
  expect(resolved.status).toBe(200);
  return created;
}

async function opsView(id: string) {
  const response = await opsCall(`/ops/contestations?limit=200`);
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as { data: unknown[] };
  return data.map((item) => opsContestationSchema.parse(item)).find((c) => c.id === id);
}

describe("contestations on business time", () => {
  it("may be made 79 days after completion by business time, not 81; created_at is business time and deadline_at 11 days on", async () => {
    // The completions happen under an offset of their own, which later advances must not move.
    await advanceClock(2 * dayMs);
    const accountId = await fundedAccount(10_000);
    const inTime = await completed(accountId);
    const tooLate = await completed(accountId);

    await advanceClock(79 * dayMs);
    const made = await contested(accountId, inTime.id);
    expect(Math.abs(Date.parse(made.created_at) - (await businessNow()))).toBeLessThan(60_000);
    expect(Date.parse(made.deadline_at) - Date.parse(made.created_at)).toBe(11 * dayMs);

    await advanceClock(2 * dayMs);
    const refused = await contest(accountId, tooLate.id);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ detail: "A transfer can be contested at most 80 days after it completed." });
  });

  it("past its deadline without a decision: one alert within seconds of the advance, marked past deadline", async () => {
    const accountId = await fundedAccount(10_000);
    const transfer = await completedByAPerson(accountId);
    const opened = await contested(accountId, transfer.id);
    expect(await opsView(opened.id)).toMatchObject({ state: "open", past_deadline: false, deadline_alerted_at: null });

    // Ten days on, the deadline is still a day ahead.
    await advanceClock(10 * dayMs);
    expect(await opsView(opened.id)).toMatchObject({ past_deadline: false, deadline_alerted_at: null });

    const alerts = captureLogEvents("contestation_past_deadline");
    await advanceClock(2 * dayMs);
    const giveUpAtMs = Date.now() + 5_000;
    let view = await opsView(opened.id);
    while (view?.deadline_alerted_at === null && Date.now() < giveUpAtMs) {
      await sleep(100);
      view = await opsView(opened.id);
    }
    expect(view).toMatchObject({ state: "open", past_deadline: true, deadline_alerted_at: expect.any(String) });
    // Raised at business time, past the deadline it is about.
    expect(Date.parse(String(view?.deadline_alerted_at))).toBeGreaterThanOrEqual(Date.parse(opened.deadline_at));

    // Another sweep raises nothing more.
    const swept = await opsCall("/ops/sweep", { method: "POST" });
    expect(swept.status).toBe(200);
    expect((await opsView(opened.id))?.deadline_alerted_at).toBe(view?.deadline_alerted_at);
    expect(alerts().filter((line) => line.contestation_id === opened.id)).toHaveLength(1);

    // Withdrawn: nothing more is asked of the provider.
    const canceled = await call(`/v1/contestations/${opened.id}/cancel`, { method: "POST", headers: await clientHeaders(accountId) });
    expect(canceled.status).toBe(200);
  });
});
