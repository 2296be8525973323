// Dynamic BR Codes whose charge changes after the hold (CONTRACT §2), for both adapters: the
// receiver changes a live charge through the sandbox (its generic seam, or Efí's PATCH
// /v2/cob/:txid), and the transfer must pay what was held or nothing. One scenario list, run
// by test/api/br-code-pinned.test.ts (generic) and test/efi-sandbox/br-code-pinned.test.ts (Efí).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { valorFromCents } from "../../src/provider/efi/money.ts";
import { resolveSandboxBrCode } from "../../src/provider/sandbox/br-codes.ts";
import { expectProblem, footprint } from "../api/helpers.ts";
import { personHeaders } from "./access.ts";
import { call, clientHeaders, fundedAccount, getBalance, getTransfer, sandboxPayment, waitForFinalState, waitForState } from "./api.ts";
import { dynamicBrCode } from "./br-codes.ts";
import { bodyOf, startAt } from "./limits.ts";
import { filePool } from "./pool-test.ts";

export type Dialect = "provider" | "efi";

export interface ChargeChange {
  amountCents?: number;
  /** An email key: the one key type both dialects' seams name the same way. */
  emailKey?: string;
  removed?: true;
}

function txidOf(code: string): string {
  const resolved = resolveSandboxBrCode(code);
  if (!resolved.ok) throw new Error(`test code not resolvable: ${resolved.code}`);
  return resolved.payment.txid;
}

async function efiToken(): Promise<string> {
  const basic = btoa(`${env.EFI_CLIENT_ID ?? ""}:${env.EFI_CLIENT_SECRET ?? ""}`);
  const response = await call("/sandbox/efi/oauth/token", {
    method: "POST",
    headers: { authorization: `Basic ${basic}`, "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials" }),
  });
  return (await response.json<{ access_token: string }>()).access_token;
}

/** The receiver changes the code's live charge, in the dialect's own words. */
export async function changeCharge(dialect: Dialect, code: string, change: ChargeChange): Promise<void> {
  const txid = txidOf(code);
  const response =
    dialect === "efi"
      ? await call(`/sandbox/efi/v2/cob/${txid}`, {
          method: "PATCH",
          headers: { authorization: `Bearer ${await efiToken()}`, "content-type": "application/json" },
          body: JSON.stringify({
            ...(change.amountCents === undefined ? {} : { valor: { original: valorFromCents(change.amountCents) } }),
            ...(change.emailKey === undefined ? {} : { chave: change.emailKey }),
            ...(change.removed ? { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" } : {}),
          }),
        })
      : await call(`/sandbox/provider/charges/${txid}`, {
          method: "PATCH",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            ...(change.amountCents === undefined ? {} : { amount_cents: change.amountCents }),
            ...(change.emailKey === undefined ? {} : { pix_key: change.emailKey, pix_key_type: "email" }),
            ...(change.removed ? { status: "removed" } : {}),
          }),
        });
  expect(response.status).toBe(200);
}

/** Noon in São Paulo today: the day rules apply, whatever the hour the suite runs at. */
const noonInSaoPaulo = () => `${new Date().toISOString().slice(0, 10)}T15:00:00Z`;

/** A transfer paying `code`, opened as the route would and held for review as a new key's large first payment. */
async function heldForReview(accountId: string, code: string): Promise<string> {
  const resolved = resolveSandboxBrCode(code);
  const amountCents = resolved.ok ? resolved.payment.amountCents : null;
  if (!resolved.ok || amountCents === null) throw new Error("test code must resolve with an amount");
  const { payment } = resolved;
  const started = await startAt(
    accountId,
    amountCents,
    noonInSaoPaulo(),
    { new_key_review_above_cents: 1_000 },
    {
      pixKey: payment.pixKey,
      pixKeyType: payment.pixKeyType,
      brCode: { text: code, kind: "dynamic", merchantName: null, merchantCity: null },
    },
  );
  const held = bodyOf(started);
  expect(held.state).toBe("needs_review");
  return held.id;
}

async function approve(transferId: string): Promise<void> {
  const response = await call(`/ops/transfers/${transferId}/resolve`, {
    method: "POST",
    headers: await personHeaders("ana.ops@example.com"),
    body: JSON.stringify({ outcome: "approve", note: "customer confirmed by phone" }),
  });
  expect(response.status).toBe(200);
}

const startCents = 100_000;
const heldCents = 6_000;

/** The charge a scenario opens with: a fresh made-up key (so the new-key review holds it) and `heldCents`. */
const freshCode = () => dynamicBrCode(`cobranca-${crypto.randomUUID().slice(0, 8)}`, heldCents);

async function expectNotSent(accountId: string, transferId: string): Promise<void> {
  const final = await waitForFinalState(accountId, transferId);
  expect(final).toMatchObject({ state: "compensated", failure_reason: "not_sent", failure_code: "br_code_changed" });
  expect(await getBalance(accountId)).toMatchObject({ balance_cents: startCents, held_cents: 0 });
  expect(await sandboxPayment(transferId)).toBeNull();
}

export function describePinnedBrCodes(dialect: Dialect): void {
  const pool = filePool(2);

  describe(`a dynamic BR Code is resolved again before the send (${dialect})`, () => {
    it("pays an unchanged charge after the approval, exactly once", async () => {
      const accountId = await fundedAccount(startCents);
      const id = await heldForReview(accountId, freshCode());
      await approve(id);
      expect((await waitForFinalState(accountId, id)).state).toBe("completed");
      expect(await getBalance(accountId)).toMatchObject({ balance_cents: startCents - heldCents, held_cents: 0 });
      expect(await sandboxPayment(id)).toMatchObject({ made: true, send_calls: 1 });
    });

    it("sends nothing when the amount was raised after the hold: br_code_changed, the hold released", async () => {
      const accountId = await fundedAccount(startCents);
      const code = freshCode();
      const id = await heldForReview(accountId, code);
      await changeCharge(dialect, code, { amountCents: heldCents + 5_000 });
      await approve(id);
      await expectNotSent(accountId, id);
    });

    it("sends nothing when the charge was moved to another key", async () => {
      const accountId = await fundedAccount(startCents);
      const code = freshCode();
      const id = await heldForReview(accountId, code);
      await changeCharge(dialect, code, { emailKey: "mule@example.com" });
      await approve(id);
      await expectNotSent(accountId, id);
    });

    it("sends nothing, once, when the charge was removed", async () => {
      const accountId = await fundedAccount(startCents);
      const code = freshCode();
      const id = await heldForReview(accountId, code);
      await changeCharge(dialect, code, { removed: true });
      await approve(id);
      await expectNotSent(accountId, id);
      const story = await getTransfer(accountId, id);
      expect(story.history.map((h) => h.state)).toEqual([
        "started",
        "funds_reserved",
        "needs_review",
        "funds_reserved",
        "compensating",
        "compensated",
      ]);
    });

    it("does not send again after a lost first send when the charge rose meanwhile", async () => {
      const accountId = await fundedAccount(startCents);
      const code = dynamicBrCode("timeout-lost@sandbox.test", 1_200);
      const created = await call("/v1/transfers", {
        method: "POST",
        headers: await clientHeaders(accountId, { "idempotency-key": crypto.randomUUID() }),
        body: JSON.stringify({ br_code: code }),
      });
      expect(created.status).toBe(202);
      const { id } = await created.json<{ id: string }>();
      // The first send was made (and lost) before the charge changes.
      await waitForState(accountId, id, "submitted");
      await changeCharge(dialect, code, { amountCents: 1_500 });
      const final = await waitForFinalState(accountId, id);
      // Efí settles a not-found by sending again, so the check stops it; the generic API
      // releases on the not-found alone and never sends again.
      const failureCode = dialect === "efi" ? "br_code_changed" : null;
      expect(final).toMatchObject({ state: "compensated", failure_reason: "not_sent", failure_code: failureCode });
      expect(await sandboxPayment(id)).toMatchObject({ made: false, send_calls: 1 });
      expect(await getBalance(accountId)).toMatchObject({ balance_cents: startCents, held_cents: 0 });
    });

    it("refuses a dynamic code with scheduled_for as /invalid-br-code, writing nothing", async () => {
      const accountId = await fundedAccount(startCents);
      const before = await footprint(pool, accountId);
      const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
      const response = await call("/v1/transfers", {
        method: "POST",
        headers: await clientHeaders(accountId, { "idempotency-key": crypto.randomUUID() }),
        body: JSON.stringify({ br_code: freshCode(), scheduled_for: tomorrow }),
      });
      const problem = await expectProblem(response, 400, "invalid-br-code");
      expect(problem.errors?.[0]?.field).toBe("br_code");
      expect(await footprint(pool, accountId)).toEqual(before);
    });
  });
}
