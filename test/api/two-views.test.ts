// Two views of a transfer (CONTRACT §2, §5): the client's history carries short customer-safe
// codes only; operator notes, actors and anti-fraud rule names stay in /ops. And a transfer held
// before anything was sent is resolved with approve or not_sent, never sent.
import { env } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import { localClockFields } from "../../src/lib/sao-paulo-clock.ts";
import { personHeaders } from "../support/access.ts";
import { call, clientHeaders, createTransfer, fundedAccount, opsCall, type TransferJson, waitForFinalState } from "../support/api.ts";
import { finalStateAtDeadline } from "../support/deadline.ts";
import { filePool } from "../support/pool-test.ts";

/** Above the anti-fraud threshold these transfers open with: a first Pix to a new key waits for a person. */
const heldAmountCents = 2_000;
const reviewAboveCents = 1_000;
const clientCodes = [null, "funds_held", "review_cleared", "sent_to_provider", "under_review", "paid", "funds_released", "not_sent"];
const pool = filePool(2);

/**
 * Opens a transfer through its saga object, as the route does, with a low anti-fraud threshold
 * (the configured one is above the nighttime cap, so a test at night could never reach it).
 */
async function heldTransfer(accountId: string): Promise<string> {
  const id = crypto.randomUUID();
  const started = await env.TRANSFER_SAGA.getByName(id).start({
    id,
    accountId,
    amountCents: heldAmountCents,
    pixKey: "10000000108",
    pixKeyType: "cpf",
    description: null,
    idempotencyKey: crypto.randomUUID(),
    requestFingerprint: "fp",
    deadlineMs: readSagaTimings(env).deadlineMs,
    ...localClockFields(Date.now()),
    rules: { ...readRuleSettings(env), new_key_review_above_cents: reviewAboveCents },
  });
  if (started.outcome !== "created") throw new Error(`start answered ${started.outcome}`);
  expect((JSON.parse(started.responseBody) as TransferJson).state).toBe("needs_review");
  return id;
}

function resolve(id: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return call(`/ops/transfers/${id}/resolve`, { method: "POST", headers, body: JSON.stringify(body) });
}

/** Everything the client can read about its transfers, as one string. */
async function clientView(accountId: string, transferId: string): Promise<string> {
  const headers = await clientHeaders(accountId);
  const one = await call(`/v1/transfers/${transferId}`, { headers });
  const list = await call("/v1/transfers", { headers });
  return `${await one.text()}\n${await list.text()}`;
}

describe("the client's view of a transfer", () => {
  it("shows an anti-fraud hold as under_review, with no rule name", async () => {
    const accountId = await fundedAccount(heldAmountCents);
    const id = await heldTransfer(accountId);
    const view = await clientView(accountId, id);
    expect(view).not.toContain("new_key");
    expect(view).not.toContain("anti-fraud");
    const transfer = JSON.parse(view.split("\n")[0] ?? "") as TransferJson;
    expect(transfer.history.map((h) => h.reason)).toEqual([null, "funds_held", "under_review"]);
    const story = await (await opsCall(`/ops/transfers/${id}`)).json<{ history: { reason: string }[] }>();
    expect(story.history.at(-1)?.reason).toContain("new_key_review");
  });

  it("never contains an operator's note, their email or a rule name, for any note and rule name", async () => {
    const accountId = await fundedAccount(heldAmountCents * 10);
    const secret = fc
      .string({ unit: "grapheme", minLength: 12, maxLength: 80 })
      .filter((s) => s.trim().length >= 12 && !s.includes("\u0000"));
    await fc.assert(
      fc.asyncProperty(secret, secret, fc.constantFrom("ana", "bia", "caio"), async (note, ruleName, person) => {
        const id = await heldTransfer(accountId);
        const email = `${person}.${crypto.randomUUID().slice(0, 8)}@fintech.example`;
        // Any rule's name, as the anti-fraud statement records it on the hold's history row. The
        // history is append-only (a trigger refuses the edit): this setup alone turns the
        // triggers off, for its own transaction (session_replication_role; the test role is a
        // superuser).
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          await client.query("SET LOCAL session_replication_role = replica");
          await client.query(
            `UPDATE transfer_history SET reason = $2, evidence = jsonb_build_object('rule', $3::text)
              WHERE transfer_id = $1 AND to_state = 'needs_review'`,
            [id, `anti-fraud review before sending: ${ruleName}`, ruleName],
          );
          await client.query("COMMIT");
        } finally {
          client.release();
        }
        const resolved = await resolve(id, { outcome: "not_sent", note }, await personHeaders(email));
        expect(resolved.status).toBe(200);
        const story = await resolved.text();
        expect(story).toContain(email);
        const view = await clientView(accountId, id);
        for (const hidden of [note.trim(), ruleName, email, "operator"]) expect(view).not.toContain(hidden);
        const transfer = JSON.parse(view.split("\n")[0] ?? "") as TransferJson;
        for (const entry of transfer.history) expect(clientCodes).toContain(entry.reason);
      }),
      { numRuns: 8, endOnFailure: true },
    );
  });
});

describe("resolving a transfer held before anything was sent", () => {
  it("refuses sent with 409 and changes nothing, since there is no Pix to settle", async () => {
    const accountId = await fundedAccount(heldAmountCents);
    const id = await heldTransfer(accountId);
    const refused = await resolve(id, { outcome: "sent", note: "looks fine" }, await personHeaders("ana@fintech.example"));
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/approve/);
    const story = await (await opsCall(`/ops/transfers/${id}`)).json<{ state: string; hold: { status: string } }>();
    expect(story).toMatchObject({ state: "needs_review", hold: { status: "held" } });
  });

  it("sends it on approve, and the client sees it paid", async () => {
    const accountId = await fundedAccount(heldAmountCents);
    const id = await heldTransfer(accountId);
    const approved = await resolve(
      id,
      { outcome: "approve", note: "customer confirmed by phone" },
      await personHeaders("ana@fintech.example"),
    );
    expect(approved.status).toBe(200);
    const done = await waitForFinalState(accountId, id);
    expect(done.state).toBe("completed");
    expect(done.history.map((h) => h.reason)).toEqual([null, "funds_held", "under_review", "review_cleared", "sent_to_provider", "paid"]);
  });

  it("refuses approve with 409 on a transfer that was already sent", async () => {
    const accountId = await fundedAccount(10_000);
    const created = await createTransfer(accountId, { amount_cents: 1_000, pix_key: "processing@sandbox.test", pix_key_type: "email" });
    const id = (await created.json<TransferJson>()).id;
    expect((await finalStateAtDeadline(accountId, id)).state).toBe("needs_review");
    const refused = await resolve(id, { outcome: "approve", note: "send it" }, await personHeaders("ana@fintech.example"));
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/already sent/);
  });
});
