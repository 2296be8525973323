// Operators and contestations with a provider that takes them (the sandbox): the queue lists
// them oldest first with their transfer and deadline, and nobody records a hand-over or a decision by hand: the object does (409).
import { describe, expect, it } from "vitest";
import { opsContestationListSchema } from "../../src/contract/ops-schemas.ts";
import { personCall } from "../support/access.ts";
import { finishedTransfer, fundedAccount, opsCall } from "../support/api.ts";
import { contested, waitForContestation } from "../support/contestations.ts";

const post = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) });

describe("operators' contestations with the sandbox provider", () => {
  it("lists them oldest first with transfer and deadline; manual steps are 409", async () => {
    const accountId = await fundedAccount(10_000);
    const transfer = await finishedTransfer(accountId, { amount_cents: 900, pix_key: "someone-ops@example.com", pix_key_type: "email" });
    const opened = await contested(accountId, transfer.id);

    const response = await opsCall("/ops/contestations?limit=200");
    expect(response.status).toBe(200);
    const { data } = opsContestationListSchema.parse(await response.json());
    const created = data.map((c) => Date.parse(c.created_at));
    expect(created).toEqual([...created].sort((a, b) => a - b));

    expect((await personCall(`/ops/contestations/${opened.id}/submitted`, post({ psp_ref: "x", note: "n" }))).status).toBe(409);
    const final = await waitForContestation(accountId, opened.id, (c) => c.decided_at !== null);
    expect((await personCall(`/ops/contestations/${final.id}/decision`, post({ outcome: "accepted", note: "n" }))).status).toBe(409);
    const byState = await opsCall("/ops/contestations?state=rejected&limit=200");
    expect((await byState.json<{ data: { id: string }[] }>()).data.map((c) => c.id)).toContain(opened.id);
    expect((await opsCall("/ops/contestations?state=maybe")).status).toBe(400);
    expect((await personCall(`/ops/contestations/${crypto.randomUUID()}/decision`, post({ outcome: "accepted", note: "n" }))).status).toBe(
      404,
    );
  });
});
