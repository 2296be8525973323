// Each hop's event carries the client resource as of that hop (transfer_history_as_event). The
// trigger builds it on the previous hop's resource where it can and renders it whole where it
// must; either way it must be what transfer_json renders. A hop that is a transfer's newest is
// the transfer as it is now, so after every step its data must equal transfer_json field for
// field: through a completion, and through a rejection released in one step of two hops (a
// failure reason set, so rendered whole). And the keys the trigger requires of the previous hop
// are transfer_json's keys.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Queryable } from "../../src/db/queryable.ts";
import { applyChange } from "../../src/transfers/store.ts";
import { completeThroughStore, openThroughStore } from "../support/store-path.ts";

const client = new pg.Client({ connectionString: inject("databaseUrl") });
const db: Queryable = { query: (text, values) => client.query(text, values) };

beforeAll(() => client.connect());
afterAll(() => client.end());

async function fundedAccount(): Promise<string> {
  const accountId = `hop-${randomUUID().slice(0, 8)}`;
  await client.query("SELECT ledger_create_account($1)", [accountId]);
  await client.query("SELECT ledger_credit($1, $2, 100000)", [`seed:${accountId}`, accountId]);
  return accountId;
}

/** The newest hop's event data beside transfer_json of the transfer now. */
async function newestHopAndResource(transferId: string): Promise<{ hop: unknown; resource: unknown; hops: number }> {
  const { rows } = await client.query<{ hop: unknown; resource: unknown; hops: number }>(
    `SELECT (SELECT h.data FROM transfer_history h WHERE h.transfer_id = $1 ORDER BY h.sequence DESC LIMIT 1) AS hop,
            transfer_json($1) AS resource,
            (SELECT count(*)::int FROM transfer_history h WHERE h.transfer_id = $1) AS hops`,
    [transferId],
  );
  const row = rows[0];
  if (row === undefined) throw new Error("no row");
  return row;
}

async function transferOf(accountId: string): Promise<string> {
  const { rows } = await client.query<{ id: string }>("SELECT id FROM transfers WHERE account_id = $1", [accountId]);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`no transfer of ${accountId}`);
  return id;
}

async function expectNewestIsResource(id: string) {
  const seen = await newestHopAndResource(id);
  expect(seen.hop).toEqual(seen.resource);
  return seen;
}

describe("a hop's event resource", () => {
  it("is transfer_json's after each step of a completion", async () => {
    const checked: string[] = [];
    await completeThroughStore(db, await fundedAccount(), 1_000, Date.now(), async (step, id) => {
      if (step === "open") expect(await newestHopAndResource(id)).toMatchObject({ hops: 2 });
      const { hop } = await expectNewestIsResource(id);
      if (step === "complete") expect(hop).toMatchObject({ state: "completed", end_to_end_id: expect.stringMatching(/^E2E/) });
      checked.push(step);
    });
    expect(checked).toEqual(["open", "send", "complete"]);
  });

  it("is transfer_json's after a rejection released in one step (two hops, a failure reason set)", async () => {
    const nowMs = Date.now();
    const id = await openThroughStore(db, await fundedAccount(), 1_000, nowMs);
    const released = await applyChange(
      db,
      id,
      "funds_reserved",
      {
        path: ["compensating", "compensated"],
        ledger: "release",
        failureReason: "provider_rejected",
        failureCode: "invalid_key",
        endToEndId: null,
        checksMade: 0,
        nextCheckAtMs: null,
        lastSentAtMs: nowMs,
        reason: "provider: rejected",
        actor: "provider",
        sent: true,
        evidence: { provider_call: "send", outcome: "rejected" },
      },
      null,
    );
    expect(released.outcome).toBe("applied");
    const { hop, resource, hops } = await newestHopAndResource(id);
    expect(hops).toBe(4);
    expect(hop).toEqual(resource);
    expect(hop).toMatchObject({ state: "compensated", failure_reason: "provider_rejected", failure_code: "invalid_key" });
    // The compensating hop, not the newest, shows its own state and the history up to itself.
    const { rows } = await client.query<{ data: { state: string; history: unknown[] } }>(
      "SELECT data FROM transfer_history WHERE transfer_id = $1 AND to_state = 'compensating'",
      [id],
    );
    expect(rows[0]?.data.state).toBe("compensating");
    expect(rows[0]?.data.history).toHaveLength(3);
  });

  it("asks of the previous hop exactly the keys transfer_json renders", async () => {
    const accountId = await fundedAccount();
    await completeThroughStore(db, accountId, 1_000, Date.now());
    const { rows } = await client.query<{ keys: string[]; source: string }>(
      `SELECT (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(transfer_json($1)) k) AS keys,
              (SELECT prosrc FROM pg_proc WHERE proname = 'transfer_history_as_event') AS source`,
      [await transferOf(accountId)],
    );
    const row = rows[0];
    const listed = /v_last \?& ARRAY\[([^\]]+)\]/.exec(row?.source ?? "")?.[1] ?? "";
    const required = [...listed.matchAll(/'(\w+)'/g)].map((m) => m[1]).sort();
    expect(required).toEqual(row?.keys);
  });
});
