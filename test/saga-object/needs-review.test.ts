// The deadline hands an inconclusive transfer to a person with the hold kept; an operator's
// resolution settles or releases it exactly once, with the note in the history.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { personCall, testOperatorEmail } from "../support/access.ts";
import { createTransfer, fundedAccount, getBalance, type TransferJson, waitForFinalState } from "../support/api.ts";
import { finalStateAtDeadline } from "../support/deadline.ts";

const amountCents = 3_000;

async function transferInReview(): Promise<{ accountId: string; id: string }> {
  const accountId = await fundedAccount(10_000);
  const created = await createTransfer(accountId, { amount_cents: amountCents, pix_key: "processing@sandbox.test", pix_key_type: "email" });
  const { id } = await created.json<TransferJson>();
  const final = await finalStateAtDeadline(accountId, id);
  expect(final.state).toBe("needs_review");
  expect(await getBalance(accountId)).toMatchObject({
    balance_cents: 10_000,
    held_cents: amountCents,
    available_cents: 10_000 - amountCents,
  });
  return { accountId, id };
}

/** As a person: `sent` is not the machine's to say (CONTRACT §5). */
function resolve(id: string, body: unknown): Promise<Response> {
  return personCall(`/ops/transfers/${id}/resolve`, { method: "POST", body: JSON.stringify(body) });
}

type Story = TransferJson & { history: { state: string; reason: string | null; actor: string }[]; hold: { status: string } };

describe("needs_review and the operator's resolution", () => {
  it("settles once on `sent`, with the note in the history; a second resolve is 409", async () => {
    const { accountId, id } = await transferInReview();
    const resolved = await resolve(id, { outcome: "sent", note: "PSP statement shows E2E paid" });
    expect(resolved.status).toBe(200);
    const story = await resolved.json<Story>();
    expect(story.state).toBe("completed");
    expect(story.hold.status).toBe("settled");
    expect(story.history.at(-1)).toMatchObject({
      state: "completed",
      actor: testOperatorEmail,
      reason: "operator: PSP statement shows E2E paid",
    });
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000 - amountCents, held_cents: 0 });

    const again = await resolve(id, { outcome: "not_sent", note: "changed my mind" });
    expect(again.status).toBe(409);
    expect(again.headers.get("content-type")).toContain("application/problem+json");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000 - amountCents, held_cents: 0 });
  });

  it("resolves from the database's record when the object's cached one is stale", async () => {
    const { accountId, id } = await transferInReview();
    // Driving the deadline may drop the cache after the object recorded needs_review: a poke
    // caches the database's record again, so there is a cache to make stale.
    await env.TRANSFER_SAGA.getByName(id).poke("sweeper");
    // An object that died after its needs_review commit and before its cache write: the cache
    // still says submitted, the database (the system of record) needs_review.
    await runInDurableObject(env.TRANSFER_SAGA.getByName(id), async (_, state) => {
      const cached = await state.storage.get<SagaRecord>("saga");
      if (!cached) throw new Error("no cached record");
      await state.storage.put("saga", { ...cached, state: "submitted" });
    });
    const resolved = await resolve(id, { outcome: "sent", note: "PSP statement shows E2E paid" });
    expect(resolved.status).toBe(200);
    expect((await resolved.json<Story>()).state).toBe("completed");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000 - amountCents, held_cents: 0 });
  });

  it("releases once on `not_sent`, restoring the balance", async () => {
    const { accountId, id } = await transferInReview();
    const resolved = await resolve(id, { outcome: "not_sent", note: "PSP confirms nothing left" });
    expect(resolved.status).toBe(200);
    const story = await resolved.json<Story>();
    expect(story).toMatchObject({ state: "compensated", failure_reason: "not_sent" });
    expect(story.hold.status).toBe("released");
    expect(await getBalance(accountId)).toEqual({ account_id: accountId, balance_cents: 10_000, held_cents: 0, available_cents: 10_000 });
  });

  it("refuses resolve without a note, with an unknown outcome, or outside needs_review", async () => {
    const accountId = await fundedAccount(10_000);
    const created = await createTransfer(accountId, { amount_cents: amountCents, pix_key: "100.000.001-08", pix_key_type: "cpf" });
    const { id } = await created.json<TransferJson>();
    expect((await resolve(id, { outcome: "sent" })).status).toBe(400);
    expect((await resolve(id, { outcome: "sent", note: "   " })).status).toBe(400);
    expect((await resolve(id, { outcome: "maybe", note: "x" })).status).toBe(400);
    await waitForFinalState(accountId, id);
    expect((await resolve(id, { outcome: "not_sent", note: "x" })).status).toBe(409);
    expect((await resolve(crypto.randomUUID(), { outcome: "sent", note: "x" })).status).toBe(404);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 10_000 - amountCents, held_cents: 0 });
  });
});
