// Four eyes that are two people (CONTRACT §5): operators are told apart by their Access `sub`,
// whatever email they signed in with; ops-token is a machine that may credit up to the
// threshold and resolve not_sent, and nothing only a person may decide; and a credit waits for
// approval when, with the same operator's credits to that account in the last 24 h, it would be
// above the threshold, decided in the database so that concurrent halves cannot both pass.
import { describe, expect, it } from "vitest";
import { testAccessSubject } from "../../scripts/lib/access-assertion.ts";
import { personCall, personHeaders } from "../support/access.ts";
import { call, createTransfer, fundedAccount, getBalance, opsCall, opsHeaders, type TransferJson } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";
import { finalStateAtDeadline } from "../support/deadline.ts";
import { filePool } from "../support/pool-test.ts";
import { expectProblem } from "./helpers.ts";

const pool = filePool(2);

/** The test Worker's OPS_CREDIT_APPROVAL_ABOVE_CENTS (vitest.config.ts). */
const thresholdCents = 100_000_000;
const overHalfCents = thresholdCents / 2 + 1;

async function account(): Promise<string> {
  const accountId = uniqueAccountId();
  expect((await opsCall(`/ops/accounts/${accountId}`, { method: "PUT" })).status).toBe(201);
  return accountId;
}

function credit(accountId: string, amountCents: number, headers: Record<string, string>, key = crypto.randomUUID()): Promise<Response> {
  return call(`/ops/accounts/${accountId}/credits`, {
    method: "POST",
    headers,
    body: JSON.stringify({ amount_cents: amountCents, idempotency_key: key }),
  });
}

async function requested(response: Response): Promise<string> {
  expect(response.status).toBe(202);
  const body = await response.json<{ status: string; credit_id: string }>();
  expect(body.status).toBe("pending_approval");
  return body.credit_id;
}

function approve(creditId: string, headers: Record<string, string>): Promise<Response> {
  return call(`/ops/credits/${creditId}/approve`, { method: "POST", headers });
}

async function waitingRequests(accountId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM credit_requests WHERE account_id = $1", [accountId]);
  return rows[0]?.n ?? -1;
}

describe("operators told apart by their Access sub", () => {
  it("refuses the approval of one person under another email (one sub), and takes another person's", async () => {
    const accountId = await account();
    const sub = crypto.randomUUID();
    const creditId = await requested(await credit(accountId, thresholdCents + 1, await personHeaders("ana@fintech.example", {}, sub)));
    await expectProblem(await approve(creditId, await personHeaders("ana+review@fintech.example", {}, sub)), 403, "forbidden");
    await expectProblem(await approve(creditId, await personHeaders("ANA@fintech.example", {}, sub)), 403, "forbidden");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 0 });
    expect((await approve(creditId, await personHeaders("bia@fintech.example"))).status).toBe(200);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: thresholdCents + 1 });
  });

  it("takes two subs as two people, even under one email, and records the approver's email", async () => {
    const accountId = await account();
    const creditId = await requested(
      await credit(accountId, thresholdCents + 1, await personHeaders("shared@fintech.example", {}, crypto.randomUUID())),
    );
    expect((await approve(creditId, await personHeaders("shared@fintech.example", {}, crypto.randomUUID()))).status).toBe(200);
    const { rows } = await pool.query<{ actor: string; operator_id: string }>(
      "SELECT actor, operator_id FROM operator_actions WHERE account_id = $1 AND action = 'credit_approved'",
      [accountId],
    );
    expect(rows).toEqual([{ actor: "shared@fintech.example", operator_id: expect.stringMatching(/^access:/) }]);
  });
});

describe("ops-token, a machine", () => {
  it("credits up to the threshold at once, and may not request more: 403, nothing recorded", async () => {
    const accountId = await account();
    expect((await credit(accountId, thresholdCents, opsHeaders())).status).toBe(200);
    const other = await account();
    await expectProblem(await credit(other, thresholdCents + 1, opsHeaders()), 403, "forbidden");
    expect(await getBalance(other)).toMatchObject({ balance_cents: 0 });
    expect(await waitingRequests(other)).toBe(0);
  });

  it("may not resolve sent nor approve: 403, the transfer stays in review; not_sent it may", async () => {
    const accountId = await fundedAccount(10_000);
    const created = await createTransfer(accountId, { amount_cents: 1_000, pix_key: "processing@sandbox.test", pix_key_type: "email" });
    const { id } = await created.json<TransferJson>();
    expect((await finalStateAtDeadline(accountId, id)).state).toBe("needs_review");
    for (const outcome of ["sent", "approve"]) {
      const response = await opsCall(`/ops/transfers/${id}/resolve`, {
        method: "POST",
        body: JSON.stringify({ outcome, note: "machine" }),
      });
      await expectProblem(response, 403, "forbidden");
    }
    expect(await getBalance(accountId)).toMatchObject({ held_cents: 1_000 });
    const sent = await personCall(`/ops/transfers/${id}/resolve`, {
      method: "POST",
      body: JSON.stringify({ outcome: "sent", note: "PSP paid" }),
    });
    expect(sent.status).toBe(200);
  });
});

describe("four eyes over 24 hours, per operator and account", () => {
  it("holds the credit that takes one person's day over the threshold, not another person's", async () => {
    const accountId = await account();
    const ana = await personHeaders("ana@fintech.example");
    const bia = await personHeaders("bia@fintech.example");
    expect((await credit(accountId, overHalfCents, ana)).status).toBe(200);
    const creditId = await requested(await credit(accountId, overHalfCents, ana));
    // Bia's own credits are hers: her first half applies at once.
    expect((await credit(accountId, overHalfCents, bia)).status).toBe(200);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 2 * overHalfCents });
    expect((await approve(creditId, bia)).status).toBe(200);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 3 * overHalfCents });
    // Another account is another sum.
    expect((await credit(await account(), overHalfCents, ana)).status).toBe(200);
  });

  it("counts ops-token's credits as one operator's: past the threshold, a person approves", async () => {
    const accountId = await account();
    expect((await credit(accountId, thresholdCents, opsHeaders())).status).toBe(200);
    const creditId = await requested(await credit(accountId, 1, opsHeaders()));
    expect((await approve(creditId, await personHeaders("ana@fintech.example"))).status).toBe(200);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: thresholdCents + 1 });
  });

  it("sums only the last 24 hours", async () => {
    const accountId = await account();
    const email = "dani@fintech.example";
    const operatorId = `access:${await testAccessSubject(email)}`;
    // Dani's credits as the audit holds them: one of 25 h ago (out of the window), one of 23 h ago.
    for (const hoursAgo of [25, 23]) {
      await pool.query(
        `INSERT INTO operator_actions (at, actor, operator_id, action, account_id, details)
           VALUES (now() - $1 * interval '1 hour', $2, $3, 'credit', $4, jsonb_build_object('amount_cents', $5::bigint))`,
        [hoursAgo, email, operatorId, accountId, overHalfCents],
      );
    }
    const dani = await personHeaders(email);
    // With the 23-hour-old one, this reaches the threshold exactly: applied.
    expect((await credit(accountId, thresholdCents - overHalfCents, dani)).status).toBe(200);
    await requested(await credit(accountId, 1, dani));
  });

  it("lets concurrent credits of one person pass only up to the threshold", async () => {
    const accountId = await account();
    const ana = await personHeaders("ana@fintech.example");
    const thirdCents = Math.floor(thresholdCents / 3) + 1;
    const answers = await Promise.all(Array.from({ length: 5 }, () => credit(accountId, thirdCents, ana)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 202, 202, 202]);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 2 * thirdCents });
    expect(await waitingRequests(accountId)).toBe(3);
  });

  it("answers a repeated key as its first request did, whatever the window says now", async () => {
    const accountId = await account();
    const ana = await personHeaders("ana@fintech.example");
    expect((await credit(accountId, overHalfCents, ana, "first")).status).toBe(200);
    const creditId = await requested(await credit(accountId, overHalfCents, ana, "second"));
    const again = await credit(accountId, overHalfCents, ana, "first");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await requested(await credit(accountId, overHalfCents, ana, "second"))).toBe(creditId);
  });
});
