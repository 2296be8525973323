// The outbox under the database fault relay: a transfer's change and its event are one
// statement (the history row's trigger writes the event), so a fault can cut a step before it
// or lose its reply after it, but never fall between the change and its event. Whatever the
// relay does to the saga's statements, every transfer's events are exactly its history (I11),
// and every return has its one transfer.returned event.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { createTransfer, fundedAccount, type TransferJson } from "../support/api.ts";
import { appConnections, dbFaultsInjected, injectDbFault, sandboxKeys } from "../support/faults.ts";
import { expectInvariants } from "./support/checks.ts";
import { drain } from "./support/drain.ts";
import { faultedFilePool } from "./support/pool.ts";

const pool = faultedFilePool(3);

async function eventsAndHistory(transferId: string): Promise<{ events: string[]; history: string[] }> {
  const { rows } = await pool.query<{ events: string[]; history: string[] }>(
    `SELECT ARRAY(SELECT data->>'state' FROM transfer_events WHERE transfer_id = $1 ORDER BY sequence) AS events,
            ARRAY(SELECT to_state FROM transfer_history WHERE transfer_id = $1 ORDER BY id) AS history`,
    [transferId],
  );
  return rows[0] ?? { events: [], history: [] };
}

describe("no fault falls between a change and its event", () => {
  it.each([
    { kind: "cut_before" as const, statement: "transfer_apply" },
    { kind: "drop_reply" as const, statement: "transfer_apply" },
    { kind: "cut_before" as const, statement: "transfer_open" },
    { kind: "drop_reply" as const, statement: "transfer_open" },
  ])("$kind on $statement: the step happened with its events, or not at all", async ({ kind, statement }) => {
    const accountId = await fundedAccount(10_000);
    const before = (await dbFaultsInjected())[kind] ?? 0;
    await injectDbFault({ kind, statementPattern: statement, count: 2, applicationNames: appConnections });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await createTransfer(accountId, { amount_cents: 1_000, ...sandboxKeys.happy }, `outbox-${kind}-${statement}-${i}`);
      if (response.status === 202) ids.push((await response.json<TransferJson>()).id);
      else await response.body?.cancel();
    }
    // Transfers whose open was cut or lost are found by their account, committed or not.
    const { rows } = await pool.query<{ id: string }>("SELECT id FROM transfers WHERE account_id = $1", [accountId]);
    const all = rows.map((row) => row.id);
    expect(all.length).toBeGreaterThanOrEqual(ids.length);
    const drained = await drain(pool, all, { timeoutMs: 20_000, rescueAfterMs: 500, label: "outbox_atomicity" });
    expect(drained.stuck).toEqual([]);
    expect((await dbFaultsInjected())[kind] ?? 0).toBeGreaterThan(before);
    for (const id of all) {
      const { events, history } = await eventsAndHistory(id);
      expect(events, id).toEqual(history);
      expect(history.at(-1), id).toBe("completed");
    }
    await expectInvariants(pool, { accountIds: [accountId] }, `after ${kind} on ${statement}`);
  });

  it("sends no separate statement for an event: no statement of the saga inserts into the outbox", async () => {
    // The relay matches statements by text; one that wrote the outbox separately could be cut alone.
    const accountId = await fundedAccount(10_000);
    const before = (await dbFaultsInjected()).cut_before ?? 0;
    await injectDbFault({
      kind: "cut_before",
      statementPattern: "INSERT INTO transfer_events",
      count: 100,
      applicationNames: appConnections,
    });
    const response = await createTransfer(accountId, { amount_cents: 1_000, ...sandboxKeys.happy }, "outbox-no-separate-statement");
    const id = (await response.json<TransferJson>()).id;
    const drained = await drain(pool, [id], { timeoutMs: 20_000, rescueAfterMs: 500, label: "outbox_atomicity" });
    expect(drained.stuck).toEqual([]);
    expect((await dbFaultsInjected()).cut_before ?? 0).toBe(before);
    expect((await eventsAndHistory(id)).events).toEqual(["started", "funds_reserved", "submitted", "completed"]);
  });

  it.each(["cut_before", "drop_reply"] as const)(
    "%s on transfer_return_apply: each return is credited once with exactly one transfer.returned event",
    async (kind) => {
      const accountId = await fundedAccount(10_000);
      const before = (await dbFaultsInjected())[kind] ?? 0;
      await injectDbFault({ kind, statementPattern: "transfer_return_apply", count: 2, applicationNames: appConnections });
      // partial-return@: the sandbox returns the amount in two parts, each reported by a status check.
      const response = await createTransfer(accountId, {
        amount_cents: 2_001,
        pix_key: "partial-return@sandbox.test",
        pix_key_type: "email",
      });
      const { id } = await response.json<TransferJson>();
      const returned = await returnedInFull(id, 2_001, 15_000);
      expect(returned, id).toBe(true);
      expect((await dbFaultsInjected())[kind] ?? 0).toBeGreaterThan(before);
      const { rows } = await pool.query<{ returns: number; events: number; credits: number }>(
        `SELECT (SELECT count(*)::int FROM transfer_returns WHERE transfer_id = $1) AS returns,
                (SELECT count(*)::int FROM transfer_events WHERE transfer_id = $1 AND type = 'transfer.returned') AS events,
                (SELECT count(*)::int FROM ledger_transactions lt JOIN transfer_returns r ON lt.op_key = 'return:' || r.id
                  WHERE r.transfer_id = $1) AS credits`,
        [id],
      );
      expect(rows).toEqual([{ returns: 2, events: 2, credits: 2 }]);
      await expectInvariants(pool, { accountIds: [accountId] }, `after ${kind} on transfer_return_apply`);
    },
  );
});

/**
 * Waits, bounded, until the transfer's returns add up to `amountCents`. A return whose apply was
 * cut is found by the next report of it: a poke every second stands in for the provider's next
 * webhook (or reconciliation reading its statement).
 */
async function returnedInFull(transferId: string, amountCents: number, timeoutMs: number): Promise<boolean> {
  const giveUpAtMs = Date.now() + timeoutMs;
  for (let round = 1; Date.now() < giveUpAtMs; round += 1) {
    const { rows } = await pool.query<{ returned_cents: string }>("SELECT returned_cents::text FROM transfers WHERE id = $1", [transferId]);
    if (Number(rows[0]?.returned_cents ?? 0) === amountCents) return true;
    if (round % 5 === 0) await env.TRANSFER_SAGA.getByName(transferId).poke("webhook");
    await sleep(200);
  }
  return false;
}
