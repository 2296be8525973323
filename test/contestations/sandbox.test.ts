// Contestations (MED 2.0) through the sandbox provider, end to end: the client contests a
// completed Pix, its object hands it to the provider at once and asks for the decision, and a
// decision in the customer's favour comes back as the transfer's `fraud` return, credited once
// by the returns path; the contestation's returned_cents shows it. Every change is an event in
// the transfer's sequence.
import { describe, expect, it } from "vitest";
import { finishedTransfer, fundedAccount, getBalance, getTransfer, opsCall, type TransferJson } from "../support/api.ts";
import { type ContestationJson, contested, waitForContestation } from "../support/contestations.ts";

const startCents = 100_000;
const dayMs = 24 * 60 * 60 * 1000;

async function completedTo(accountId: string, pixKey: string, amountCents: number): Promise<TransferJson> {
  const final = await finishedTransfer(accountId, { amount_cents: amountCents, pix_key: pixKey, pix_key_type: "email" });
  expect(final.state).toBe("completed");
  return final;
}

const decided = (c: ContestationJson) => c.decided_at !== null;

type EventJson = { type: string; sequence: number; data: { state: string } };

async function eventsOf(transferId: string): Promise<EventJson[]> {
  const response = await opsCall(`/ops/events?transfer_id=${transferId}`);
  expect(response.status).toBe(200);
  return (await response.json<{ data: EventJson[] }>()).data;
}

describe("a contestation through the sandbox", () => {
  it("med-accept: accepted, the whole amount back as one fraud return, credited once", async () => {
    const accountId = await fundedAccount(startCents);
    const transfer = await completedTo(accountId, `med-accept-${crypto.randomUUID().slice(0, 8)}@sandbox.test`, 2_500);
    const opened = await contested(accountId, transfer.id);
    expect(opened).toMatchObject({ transfer_id: transfer.id, state: "open", reason: "scam", returned_cents: 0, decided_at: null });
    expect(Date.parse(opened.deadline_at) - Date.parse(opened.created_at)).toBe(11 * dayMs);

    const final = await waitForContestation(accountId, opened.id, (c) => c.state === "accepted" && c.returned_cents === 2_500);
    expect(final.submitted_at).not.toBeNull();
    expect(final.decided_at).not.toBeNull();
    const after = await getTransfer(accountId, transfer.id);
    expect(after.state).toBe("completed");
    expect(after.returns).toEqual([{ id: expect.stringMatching(/^D/), amount_cents: 2_500, reason: "fraud", at: expect.any(String) }]);
    expect((await getBalance(accountId)).balance_cents).toBe(startCents);

    // Every change in the transfer's sequence, the contestation's in order.
    const events = await eventsOf(transfer.id);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === "contestation.updated").map((e) => e.data.state)).toEqual(["open", "submitted", "accepted"]);
    expect(events.filter((e) => e.type === "transfer.returned")).toHaveLength(1);
  });

  it("med-partial: partially accepted, half (rounded down) back", async () => {
    const accountId = await fundedAccount(startCents);
    const transfer = await completedTo(accountId, `med-partial-${crypto.randomUUID().slice(0, 8)}@sandbox.test`, 2_501);
    const opened = await contested(accountId, transfer.id, { reason: "coercion", details: "Forced to pay at gunpoint." });
    const final = await waitForContestation(accountId, opened.id, (c) => c.state === "partially_accepted" && c.returned_cents > 0);
    expect(final.returned_cents).toBe(1_250);
    expect((await getTransfer(accountId, transfer.id)).returned_cents).toBe(1_250);
    expect((await getBalance(accountId)).balance_cents).toBe(startCents - 2_501 + 1_250);
  });

  it("any other key: rejected, nothing comes back", async () => {
    const accountId = await fundedAccount(startCents);
    const transfer = await completedTo(accountId, `someone-${crypto.randomUUID().slice(0, 8)}@example.com`, 700);
    const opened = await contested(accountId, transfer.id, { reason: "fraud", details: "Not me." });
    const final = await waitForContestation(accountId, opened.id, decided);
    expect(final).toMatchObject({ state: "rejected", returned_cents: 0 });
    expect((await getTransfer(accountId, transfer.id)).returns).toEqual([]);
    const states = (await eventsOf(transfer.id)).filter((e) => e.type === "contestation.updated").map((e) => e.data.state);
    expect(states).toEqual(["open", "submitted", "rejected"]);
  });
});
