// Four eyes on large credits (CONTRACT §5): above OPS_CREDIT_APPROVAL_ABOVE_CENTS a credit waits
// for a different person's approval; the requester and ops-token are refused, a second approval
// and a repeat apply nothing: exactly one credit, whatever happens. People are told apart by
// their Access `sub`, and credits add up per person and account over 24 hours
// (four-eyes-identity.test.ts).
import { describe, expect, it } from "vitest";
import { personHeaders } from "../support/access.ts";
import { call, getBalance, opsCall, opsHeaders } from "../support/api.ts";
import { testPool, uniqueAccountId } from "../support/db.ts";

/** The test Worker's OPS_CREDIT_APPROVAL_ABOVE_CENTS (vitest.config.ts), and just above it. */
const thresholdCents = 100_000_000;
const largeCents = thresholdCents + 1;

async function account(): Promise<string> {
  const accountId = uniqueAccountId();
  expect((await opsCall(`/ops/accounts/${accountId}`, { method: "PUT" })).status).toBe(201);
  return accountId;
}

function credit(accountId: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return call(`/ops/accounts/${accountId}/credits`, { method: "POST", headers, body: JSON.stringify(body) });
}

function approve(creditId: string, headers: Record<string, string>): Promise<Response> {
  return call(`/ops/credits/${creditId}/approve`, { method: "POST", headers });
}

async function ledgerCredits(accountId: string): Promise<number> {
  const pool = testPool(1);
  try {
    const { rows } = await pool.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM ledger_transactions WHERE account_id = $1 AND kind = 'credit'",
      [accountId],
    );
    return Number(rows[0]?.n);
  } finally {
    await pool.end();
  }
}

describe("four-eyes credits", () => {
  it("applies a credit at or below the threshold at once", async () => {
    const accountId = await account();
    const response = await credit(accountId, { amount_cents: thresholdCents, idempotency_key: "k" }, opsHeaders());
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ balance_cents: thresholdCents });
  });

  it("holds a large credit until another person approves it: same actor, ops-token, a second approval, a repeat -> one credit", async () => {
    const accountId = await account();
    const ana = await personHeaders("ana@fintech.example");
    const bia = await personHeaders("bia@fintech.example");
    const caio = await personHeaders("caio@fintech.example");

    const requested = await credit(accountId, { amount_cents: largeCents, idempotency_key: "big" }, ana);
    expect(requested.status).toBe(202);
    const { status, credit_id: creditId } = await requested.json<{ status: string; credit_id: string }>();
    expect(status).toBe("pending_approval");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 0 });
    // Repeating the request finds the same one.
    const repeated = await credit(accountId, { amount_cents: largeCents, idempotency_key: "big" }, ana);
    expect(repeated.status).toBe(202);
    expect(await repeated.json()).toEqual({ status: "pending_approval", credit_id: creditId });

    expect((await approve(creditId, ana)).status).toBe(403);
    expect((await approve(creditId, opsHeaders())).status).toBe(403);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: 0 });

    const approved = await approve(creditId, bia);
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ account_id: accountId, balance_cents: largeCents });

    const again = await approve(creditId, bia);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await approve(creditId, caio)).status).toBe(409);
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: largeCents });
    expect(await ledgerCredits(accountId)).toBe(1);

    const trail = await (await opsCall(`/ops/audit?account_id=${accountId}`)).json<{
      data: { action: string; actor: string }[];
    }>();
    expect(trail.data.map((e) => [e.action, e.actor])).toEqual([
      ["credit_approved", "bia@fintech.example"],
      ["credit_requested", "ana@fintech.example"],
      ["account_created", "ops-token"],
    ]);
  });

  it("applies concurrent approvals by two people once", async () => {
    const accountId = await account();
    const requested = await credit(
      accountId,
      { amount_cents: largeCents, idempotency_key: "k" },
      await personHeaders("caio@fintech.example"),
    );
    const { credit_id: creditId } = await requested.json<{ credit_id: string }>();
    const answers = await Promise.all([
      approve(creditId, await personHeaders("ana@fintech.example")),
      approve(creditId, await personHeaders("bia@fintech.example")),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await ledgerCredits(accountId)).toBe(1);
  });

  it("refuses a request reusing a key of another amount or of a credit already applied", async () => {
    const accountId = await account();
    const ana = await personHeaders("ana@fintech.example");
    expect((await credit(accountId, { amount_cents: 500, idempotency_key: "small" }, ana)).status).toBe(200);
    expect((await credit(accountId, { amount_cents: largeCents, idempotency_key: "small" }, ana)).status).toBe(422);
    expect((await credit(accountId, { amount_cents: largeCents, idempotency_key: "big" }, ana)).status).toBe(202);
    expect((await credit(accountId, { amount_cents: largeCents + 1, idempotency_key: "big" }, ana)).status).toBe(422);
    expect((await credit(accountId, { amount_cents: 700, idempotency_key: "big" }, ana)).status).toBe(422);
  });

  it("answers 404 for an unknown or malformed credit id", async () => {
    const ana = await personHeaders("ana@fintech.example");
    expect((await approve(crypto.randomUUID(), ana)).status).toBe(404);
    expect((await approve("not-an-id", ana)).status).toBe(404);
  });
});
