// Operator routes through the whole Worker (CONTRACT §5): accounts, idempotent credits, the
// transfer queue with its filters, one transfer's story with its evidence, reconciliation,
// resolve and sweep.
import { describe, expect, it } from "vitest";
import { opsTransferListSchema, reconciliationSchema, sweepSchema, transferStorySchema } from "../../src/contract/ops-schemas.ts";
import { balanceSchema, transferSchema } from "../../src/contract/schemas.ts";
import { call, createTransfer, fundedAccount, opsHeaders, waitForFinalState } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";
import { filePool } from "../support/pool-test.ts";
import { emptyAccount, expectJson, expectProblem, expectValidationProblem, footprint, validTransfer } from "./helpers.ts";

const pool = filePool(2);

function ops(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return call(path, {
    method: init.method ?? "GET",
    headers: opsHeaders(),
    ...(init.body === undefined ? {} : { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) }),
  });
}

function credit(accountId: string, amountCents: number, idempotencyKey: string): Promise<Response> {
  return ops(`/ops/accounts/${accountId}/credits`, {
    method: "POST",
    body: { amount_cents: amountCents, idempotency_key: idempotencyKey },
  });
}

describe("PUT /ops/accounts/:id", () => {
  it("creates the account with a zero balance (201), then answers 200 with the same body", async () => {
    const accountId = uniqueAccountId("ops");
    const created = await ops(`/ops/accounts/${accountId}`, { method: "PUT" });
    const zero = { account_id: accountId, balance_cents: 0, held_cents: 0, available_cents: 0 };
    expect(await expectJson(created, 201, balanceSchema)).toEqual(zero);
    const again = await ops(`/ops/accounts/${accountId}`, { method: "PUT" });
    expect(await expectJson(again, 200, balanceSchema)).toEqual(zero);
  });

  it("accepts ids of 1 and 64 characters of [A-Za-z0-9_-]", async () => {
    for (const accountId of ["x", `Ab_-${crypto.randomUUID().replaceAll("-", "")}`.padEnd(64, "9").slice(0, 64)]) {
      const response = await ops(`/ops/accounts/${accountId}`, { method: "PUT" });
      expect([200, 201]).toContain(response.status);
      expect((await expectJson(response, response.status, balanceSchema)).account_id).toBe(accountId);
    }
  });

  it.each([
    ["65 characters", "a".repeat(65)],
    ["a dot", "acct.1"],
    ["a space", "acct%201"],
    ["non-ASCII", "conta-%C3%A7"],
    ["a colon", "acct:1"],
  ])("answers 400 to an id with %s and creates nothing", async (_label, id) => {
    await expectValidationProblem(await ops(`/ops/accounts/${id}`, { method: "PUT" }), "id");
    expect(await footprint(pool, decodeURIComponent(id))).toMatchObject({ balanceCents: null });
  });
});

describe("POST /ops/accounts/:id/credits", () => {
  it("credits once per key: a repeat answers the same balance, marked Idempotent-Replayed", async () => {
    const accountId = await emptyAccount("credit");
    const first = await credit(accountId, 10_000, "deposit-1");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const balance = { account_id: accountId, balance_cents: 10_000, held_cents: 0, available_cents: 10_000 };
    expect(await expectJson(first, 200, balanceSchema)).toEqual(balance);

    const repeat = await credit(accountId, 10_000, "deposit-1");
    expect(repeat.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson(repeat, 200, balanceSchema)).toEqual(balance);
    expect(await footprint(pool, accountId)).toMatchObject({ ledgerTransactions: 1, entries: 1, balanceCents: 10_000 });

    const second = await credit(accountId, 5_000, "deposit-2");
    expect((await expectJson(second, 200, balanceSchema)).balance_cents).toBe(15_000);
  });

  it("answers 422 idempotency-key-reused to the same key with another amount, and credits nothing", async () => {
    const accountId = await emptyAccount("credit");
    await expectJson(await credit(accountId, 10_000, "deposit"), 200, balanceSchema);
    await expectProblem(await credit(accountId, 20_000, "deposit"), 422, "idempotency-key-reused");
    expect(await footprint(pool, accountId)).toMatchObject({ ledgerTransactions: 1, balanceCents: 10_000 });
  });

  it("answers 404 for an account that does not exist", async () => {
    const accountId = uniqueAccountId("ghost");
    await expectProblem(await credit(accountId, 100, "k"), 404, "not-found");
    expect(await footprint(pool, accountId)).toMatchObject({ ledgerTransactions: 0, balanceCents: null });
  });

  it.each([
    ["a zero amount", { amount_cents: 0, idempotency_key: "k" }, "amount_cents"],
    ["a float amount", { amount_cents: 1.5, idempotency_key: "k" }, "amount_cents"],
    ["no key", { amount_cents: 100 }, "idempotency_key"],
    ["an empty key", { amount_cents: 100, idempotency_key: "" }, "idempotency_key"],
    ["an unknown field", { amount_cents: 100, idempotency_key: "k", note: "x" }, ""],
  ])("answers 400 to %s and credits nothing", async (_label, body, field) => {
    const accountId = await emptyAccount("credit");
    await expectValidationProblem(await ops(`/ops/accounts/${accountId}/credits`, { method: "POST", body }), field);
    expect(await footprint(pool, accountId)).toMatchObject({ ledgerTransactions: 0, balanceCents: 0 });
  });

  it("answers 400 to a bad account id", async () => {
    await expectValidationProblem(await credit("bad.id", 100, "k"), "id");
  });
});

describe("GET /ops/transfers", () => {
  it("filters by state and account_id; with a state, oldest first", async () => {
    const accountId = await emptyAccount("queue");
    const ids: string[] = [];
    for (const amount of [101, 102, 103]) {
      ids.push((await expectJson(await createTransfer(accountId, { ...validTransfer, amount_cents: amount }), 202, transferSchema)).id);
    }
    const byState = await expectJson(await ops(`/ops/transfers?state=compensated&account_id=${accountId}`), 200, opsTransferListSchema);
    expect(byState.data.map((t) => t.id)).toEqual(ids);
    for (const t of byState.data) expect(t).toMatchObject({ account_id: accountId, state: "compensated" });

    const byAccount = await expectJson(await ops(`/ops/transfers?account_id=${accountId}`), 200, opsTransferListSchema);
    expect(byAccount.data.map((t) => t.id)).toEqual([...ids].reverse());

    const none = await expectJson(await ops(`/ops/transfers?state=completed&account_id=${accountId}`), 200, opsTransferListSchema);
    expect(none.data).toEqual([]);

    const limited = await expectJson(await ops(`/ops/transfers?account_id=${accountId}&limit=2`), 200, opsTransferListSchema);
    expect(limited.data).toHaveLength(2);
  });

  it("lists only transfers in the state asked for, across accounts", async () => {
    const list = await expectJson(await ops("/ops/transfers?state=compensated&limit=100"), 200, opsTransferListSchema);
    for (const t of list.data) expect(t.state).toBe("compensated");
  });

  it.each([
    ["an unknown state", "?state=lost", "state"],
    ["a bad account id", "?account_id=bad.id", "account_id"],
    ["limit 0", "?limit=0", "limit"],
    ["limit 101", "?limit=101", "limit"],
    ["an unknown parameter", "?sort=asc", ""],
  ])("answers 400 to %s", async (_label, query, field) => {
    await expectValidationProblem(await ops(`/ops/transfers${query}`), field);
  });
});

describe("GET /ops/transfers/:id", () => {
  it("shows the whole story: history with actors and evidence, provider calls with answers, hold and entries", async () => {
    const accountId = await fundedAccount(100_000);
    const created = await expectJson(await createTransfer(accountId, validTransfer), 202, transferSchema);
    await waitForFinalState(accountId, created.id);

    const story = await expectJson(await ops(`/ops/transfers/${created.id}`), 200, transferStorySchema);
    expect(story).toMatchObject({ id: created.id, account_id: accountId, state: "completed", amount_cents: validTransfer.amount_cents });
    expect(story.history.map((h) => h.state)).toEqual(["started", "funds_reserved", "submitted", "completed"]);
    expect(story.history[0]?.from).toBeNull();
    for (const h of story.history) expect(h).toHaveProperty("evidence");
    const submitted = story.history.find((h) => h.state === "submitted");
    expect(submitted?.evidence).not.toBeNull();

    const send = story.provider_calls.find((p) => p.kind === "send");
    expect(send).toMatchObject({ kind: "send", http_status: 201 });
    expect(send?.detail).not.toBeNull();
    expect(story.send_attempts).toBeGreaterThanOrEqual(1);
    expect(story.hold).toMatchObject({ status: "settled", amount_cents: validTransfer.amount_cents });
    expect(story.entries.find((e) => e.account_id === accountId)?.amount_cents).toBe(-validTransfer.amount_cents);
  });

  it("answers 404 for an unknown id and for a malformed one", async () => {
    await expectProblem(await ops(`/ops/transfers/${crypto.randomUUID()}`), 404, "not-found");
    await expectProblem(await ops("/ops/transfers/not-a-uuid"), 404, "not-found");
  });
});

describe("POST /ops/transfers/:id/resolve", () => {
  it("answers 409 for a transfer that is not in needs_review, and changes nothing", async () => {
    const accountId = await emptyAccount("resolve");
    const created = await expectJson(await createTransfer(accountId, validTransfer), 202, transferSchema);
    const before = await footprint(pool, accountId);
    const response = await ops(`/ops/transfers/${created.id}/resolve`, { method: "POST", body: { outcome: "not_sent", note: "unpaid" } });
    await expectProblem(response, 409, "conflict");
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it.each([
    ["an unknown outcome", { outcome: "maybe", note: "n" }, "outcome"],
    ["no note", { outcome: "sent" }, "note"],
    ["a blank note", { outcome: "sent", note: "   " }, "note"],
  ])("answers 400 to %s", async (_label, body, field) => {
    await expectValidationProblem(await ops(`/ops/transfers/${crypto.randomUUID()}/resolve`, { method: "POST", body }), field);
  });

  it("answers 404 for an unknown transfer", async () => {
    const response = await ops(`/ops/transfers/${crypto.randomUUID()}/resolve`, {
      method: "POST",
      body: { outcome: "not_sent", note: "n" },
    });
    await expectProblem(response, 404, "not-found");
  });
});

describe("GET /ops/reconciliation and POST /ops/sweep", () => {
  it("reports the ledger reconciled, in the contract's shape", async () => {
    const report = await expectJson(await ops("/ops/reconciliation"), 200, reconciliationSchema);
    expect(report.accounts_checked).toBeGreaterThan(0);
    expect(report.divergences).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it("runs the sweeper on demand", async () => {
    const swept = await expectJson(await ops("/ops/sweep", { method: "POST" }), 200, sweepSchema);
    expect(swept.poked).toBeGreaterThanOrEqual(0);
  });
});
