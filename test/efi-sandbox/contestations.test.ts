// Contestations with PROVIDER=efi, which takes none from the payer's side (CONTRACT §4b, §5): the
// contestation stays `open` in the operators' queue; a person files it with the PSP and records
// the reference (`submitted`), then the decision, each audited; ops-token may read but not
// record. The refund, when the PSP sends it, is a `fraud` return in Efí's words (devolucoes),
// credited once by the returns path.
import { describe, expect, it } from "vitest";
import { personCall, testOperatorEmail } from "../support/access.ts";
import { call, clientHeaders, finishedTransfer, fundedAccount, getBalance, opsCall } from "../support/api.ts";
import { claim, contested, getContestation, waitForContestation } from "../support/contestations.ts";

type OpsContestation = {
  id: string;
  state: string;
  psp_ref: string | null;
  past_deadline: boolean;
  deadline_at: string;
  transfer: { id: string };
};

const post = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) });

describe("with PROVIDER=efi, contestations are an operator's to hand over", () => {
  it("stays open in the queue; a person records the PSP's reference and the decision, audited; the refund comes as a return", async () => {
    const accountId = await fundedAccount(100_000);
    const transfer = await finishedTransfer(accountId, {
      amount_cents: 3_000,
      pix_key: "med-accept-efi@sandbox.test",
      pix_key_type: "email",
    });
    expect(transfer.state).toBe("completed");
    const opened = await contested(accountId, transfer.id, claim);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await getContestation(accountId, opened.id)).state).toBe("open");

    const queue = await opsCall("/ops/contestations?state=open&limit=200");
    expect(queue.status).toBe(200);
    const listed = (await queue.json<{ data: OpsContestation[] }>()).data.find((c) => c.id === opened.id);
    expect(listed).toMatchObject({ state: "open", psp_ref: null, past_deadline: false, deadline_at: opened.deadline_at });
    expect(listed?.transfer.id).toBe(transfer.id);
    // The overview counts it among those waiting, and no deadline it names is later than this one's.
    const overview = await (await opsCall("/ops/overview")).json<{ contestations: { open: number; nearest_deadline_at: string } }>();
    expect(overview.contestations.open).toBeGreaterThanOrEqual(1);
    expect(Date.parse(overview.contestations.nearest_deadline_at)).toBeLessThanOrEqual(Date.parse(opened.deadline_at));

    // A machine may not record a person's steps; a decision before the hand-over is 409.
    const path = `/ops/contestations/${opened.id}`;
    expect((await opsCall(`${path}/submitted`, post({ psp_ref: "x", note: "n" }))).status).toBe(403);
    expect((await personCall(`${path}/decision`, post({ outcome: "accepted", note: "too early" }))).status).toBe(409);
    // Another site's page, or a body not labelled JSON, acts on nothing.
    const crossSite = await personCall(`${path}/submitted`, {
      ...post({ psp_ref: "x", note: "n" }),
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const notJson = await personCall(`${path}/submitted`, {
      ...post({ psp_ref: "x", note: "n" }),
      headers: { "content-type": "text/plain" },
    });
    expect(notJson.status).toBe(415);

    // The person files it with the PSP (here the sandbox, which decides it by the key) and records its reference.
    const filed = await call(`/sandbox/provider/pix/${transfer.id}/contestations`, post({ reason: "scam", details: claim.details }));
    expect(filed.status).toBe(201);
    const pspRef = (await filed.json<{ id: string }>()).id;
    const submitted = await personCall(`${path}/submitted`, post({ psp_ref: pspRef, note: "Filed at Efí's MED desk" }));
    expect(submitted.status).toBe(200);
    expect(await submitted.json<OpsContestation>()).toMatchObject({ state: "submitted", psp_ref: pspRef });
    expect((await personCall(`${path}/submitted`, post({ psp_ref: pspRef, note: "again" }))).status).toBe(409);
    expect((await opsCall(`${path}/decision`, post({ outcome: "accepted", note: "n" }))).status).toBe(403);

    const decided = await personCall(`${path}/decision`, post({ outcome: "accepted", note: "Efí accepted the claim" }));
    expect(decided.status).toBe(200);
    expect((await decided.json<OpsContestation>()).state).toBe("accepted");
    expect((await personCall(`${path}/decision`, post({ outcome: "rejected", note: "n" }))).status).toBe(409);

    // The money is the PSP's return, credited once, whoever saw it first (its webhook or the decision).
    const refunded = await waitForContestation(accountId, opened.id, (c) => c.returned_cents === 3_000);
    expect(refunded.state).toBe("accepted");
    expect((await getBalance(accountId)).balance_cents).toBe(100_000);

    const audit = await opsCall(`/ops/audit?account_id=${accountId}`);
    const actions = (await audit.json<{ data: { action: string; actor: string; transfer_id: string }[] }>()).data.filter((a) =>
      a.action.startsWith("contestation_"),
    );
    expect(actions.map((a) => [a.action, a.actor, a.transfer_id])).toEqual([
      ["contestation_decided", testOperatorEmail, transfer.id],
      ["contestation_submitted", testOperatorEmail, transfer.id],
    ]);
  });

  it("a rejection records no money, and the client may cancel an open one", async () => {
    const accountId = await fundedAccount(10_000);
    const transfer = await finishedTransfer(accountId, { amount_cents: 700, pix_key: "payee-efi@example.com", pix_key_type: "email" });
    const first = await contested(accountId, transfer.id);
    const path = `/ops/contestations/${first.id}`;
    expect((await personCall(`${path}/submitted`, post({ psp_ref: "MED-123", note: "filed" }))).status).toBe(200);
    expect((await personCall(`${path}/decision`, post({ outcome: "rejected", note: "PSP refused" }))).status).toBe(200);
    expect(await getContestation(accountId, first.id)).toMatchObject({ state: "rejected", returned_cents: 0 });

    const second = await contested(accountId, transfer.id);
    const canceled = await call(`/v1/contestations/${second.id}/cancel`, { method: "POST", headers: await clientHeaders(accountId) });
    expect(canceled.status).toBe(200);
    expect((await opsCall(`/ops/contestations/${second.id}/submitted`, post({ psp_ref: "x", note: "n" }))).status).toBe(403);
    expect((await personCall(`/ops/contestations/${second.id}/submitted`, post({ psp_ref: "x", note: "n" }))).status).toBe(409);
  });
});
