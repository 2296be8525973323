// Every operator action records its actor (CONTRACT §5): account creation, credits, limit
// changes with old and new values, transfer resolutions and reconciliation runs, all listed by
// GET /ops/audit newest first, filtered by account and actor, paged by cursor.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { auditPageSchema } from "../../src/contract/ops-schemas.ts";
import { personHeaders } from "../support/access.ts";
import { call, createTransfer, opsCall, type TransferJson } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";
import { finalStateAtDeadline } from "../support/deadline.ts";

type AuditPage = z.infer<typeof auditPageSchema>;

async function audit(query: string): Promise<AuditPage> {
  const response = await opsCall(`/ops/audit?${query}`);
  expect(response.status).toBe(200);
  // Parsed by the contract's schema: every page read here is also checked to be what §5 says.
  return auditPageSchema.parse(await response.json());
}

const ana = "ana@fintech.example";

describe("GET /ops/audit", () => {
  it("lists each operator action of an account with its actor, newest first", async () => {
    const accountId = uniqueAccountId();
    const asAna = await personHeaders(ana);
    expect((await call(`/ops/accounts/${accountId}`, { method: "PUT", headers: asAna })).status).toBe(201);
    expect((await call(`/ops/accounts/${accountId}`, { method: "PUT", headers: asAna })).status).toBe(200);
    const credited = await opsCall(`/ops/accounts/${accountId}/credits`, {
      method: "POST",
      body: JSON.stringify({ amount_cents: 10_000, idempotency_key: "seed" }),
    });
    expect(credited.status).toBe(200);
    const limits = (body: unknown) =>
      call(`/ops/accounts/${accountId}/limits`, { method: "PUT", headers: asAna, body: JSON.stringify(body) });
    expect((await limits({ daily_cents: 5_000 })).status).toBe(200);
    expect((await limits({ daily_cents: 3_000, night_starts_at: "22:00" })).status).toBe(200);
    const created = await createTransfer(accountId, { amount_cents: 1_000, pix_key: "processing@sandbox.test", pix_key_type: "email" });
    const transferId = (await created.json<TransferJson>()).id;
    expect((await finalStateAtDeadline(accountId, transferId)).state).toBe("needs_review");
    const resolved = await call(`/ops/transfers/${transferId}/resolve`, {
      method: "POST",
      headers: await personHeaders(ana),
      body: JSON.stringify({ outcome: "not_sent", note: "PSP has no such payment" }),
    });
    expect(resolved.status).toBe(200);
    const story = await resolved.json<{ history: { actor: string; evidence: Record<string, unknown> }[] }>();
    expect(story.history.at(-1)).toMatchObject({
      actor: ana,
      evidence: { operator: ana, operator_note: "PSP has no such payment" },
    });

    const page = await audit(`account_id=${accountId}`);
    expect(page.data.map((e) => [e.action, e.actor])).toEqual([
      ["transfer_resolved", ana],
      ["limits_changed", ana],
      ["limits_changed", ana],
      ["credit", "ops-token"],
      ["account_created", ana],
    ]);
    const [resolution, secondLimits, firstLimits, credit] = page.data;
    expect(resolution).toMatchObject({ transfer_id: transferId, details: { outcome: "not_sent", note: "PSP has no such payment" } });
    const defaults = {
      per_transfer_cents: null,
      daily_cents: null,
      night_per_transfer_cents: null,
      night_total_cents: null,
      night_starts_at: null,
    };
    expect(firstLimits?.details).toEqual({ old: defaults, new: { ...defaults, daily_cents: 5_000 }, pending: [] });
    // A later night start loosens the rules: it waits 24 h, and the audit says so.
    expect(secondLimits?.details).toMatchObject({
      old: { daily_cents: 5_000 },
      new: { daily_cents: 3_000, night_starts_at: null },
      pending: [{ limit: "night_starts_at", value: "22:00" }],
    });
    expect(credit?.details).toEqual({ amount_cents: 10_000, idempotency_key: "seed" });
    expect(page.next_cursor).toBeNull();
  });

  it("filters by actor and pages with the cursor it issued", async () => {
    const person = `audit-${crypto.randomUUID().slice(0, 8)}@fintech.example`;
    const headers = await personHeaders(person);
    const accounts = [uniqueAccountId(), uniqueAccountId(), uniqueAccountId()];
    for (const accountId of accounts) expect((await call(`/ops/accounts/${accountId}`, { method: "PUT", headers })).status).toBe(201);
    const first = await audit(`actor=${encodeURIComponent(person)}&limit=2`);
    expect(first.data.map((e) => e.account_id)).toEqual([accounts[2], accounts[1]]);
    expect(first.next_cursor).not.toBeNull();
    const second = await audit(`actor=${encodeURIComponent(person)}&limit=2&cursor=${first.next_cursor}`);
    expect(second.data.map((e) => e.account_id)).toEqual([accounts[0]]);
    expect(second.next_cursor).toBeNull();
    // An entry id is a well-formed position, but not a cursor the API issued; nor is the issued
    // one with its position swapped for another id.
    const issued = first.next_cursor ?? "";
    const [, seal = ""] = issued.split(".");
    for (const made of [second.data[0]?.id ?? "1", `${btoa("1").replaceAll("=", "")}.${seal}`]) {
      const response = await opsCall(`/ops/audit?actor=${encodeURIComponent(person)}&cursor=${encodeURIComponent(made)}`);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  it("records nothing for a GET: reading the ledger's reconciliation is no action", async () => {
    const person = `audit-${crypto.randomUUID().slice(0, 8)}@fintech.example`;
    const headers = await personHeaders(person);
    expect((await call("/ops/reconciliation", { headers })).status).toBe(200);
    expect((await audit(`actor=${encodeURIComponent(person)}`)).data).toEqual([]);
  });

  it.each([
    ["cursor=abc"],
    ["cursor=0"],
    ["cursor=-1"],
    ["cursor=99999999999999999999"],
    ["limit=0"],
    ["limit=101"],
    ["account_id=a%2Fb"],
    ["surprise=1"],
  ])("answers 400 for %s", async (query) => {
    const response = await opsCall(`/ops/audit?${query}`);
    expect(response.status).toBe(400);
  });

  it("is for operators only", async () => {
    expect((await call("/ops/audit")).status).toBe(401);
  });
});
