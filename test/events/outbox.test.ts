// The outbox is the database's guarantee, not the callers' discipline: the SQL functions called
// directly (and bare SQL writers) show that every recorded change has exactly one event, in
// order, carrying the client resource as of that change, and that no event exists without its
// change.
import { describe, expect, it } from "vitest";
import { transferForAccount } from "../../src/transfers/reads.ts";
import { filePool } from "../support/pool-test.ts";
import { ledgerAccount, openWithoutObject, transferApplyDirectly } from "../support/saga.ts";

const pool = filePool(3);

interface EventRow {
  id: string;
  sequence: number;
  type: string;
  history_state: string;
  data: { state: string; history: { state: string }[]; updated_at: string };
}

async function eventsOf(transferId: string): Promise<EventRow[]> {
  const { rows } = await pool.query<EventRow>(
    `SELECT e.id, e.sequence, e.type, h.to_state AS history_state, e.data
       FROM transfer_events e JOIN transfer_history h ON h.id = e.history_id
      WHERE e.transfer_id = $1 ORDER BY e.sequence`,
    [transferId],
  );
  return rows;
}

async function historyOf(transferId: string): Promise<string[]> {
  const { rows } = await pool.query<{ to_state: string }>("SELECT to_state FROM transfer_history WHERE transfer_id = $1 ORDER BY id", [
    transferId,
  ]);
  return rows.map((row) => row.to_state);
}

async function opened(balanceCents: number): Promise<{ id: string; accountId: string }> {
  const accountId = await ledgerAccount(pool, balanceCents);
  const saga = await openWithoutObject(pool, accountId, 1_000);
  return { id: saga.id, accountId };
}

/** Event 3 written by hand with no change behind it, as a buggy writer would: the database must refuse it. */
function forgedEvent(transferId: string, id: string, type: string): Promise<unknown> {
  return pool.query(
    `INSERT INTO transfer_events (id, transfer_id, sequence, type, occurred_at, data) VALUES ($1, $2, 3, $3, now(), '{}')`,
    [id, transferId, type],
  );
}

describe("every change is recorded with its event", () => {
  it("gives transfer_open's hops events 1, 2 with the resource as of each, the last one what GET answers", async () => {
    const transfer = await opened(10_000);
    const events = await eventsOf(transfer.id);
    expect(events.map((e) => [e.sequence, e.type, e.history_state, e.data.state])).toEqual([
      [1, "transfer.updated", "started", "started"],
      [2, "transfer.updated", "funds_reserved", "funds_reserved"],
    ]);
    expect(events[0]?.data.history.map((h) => h.state)).toEqual(["started"]);
    for (const event of events) expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    const read = await transferForAccount(pool, transfer.id, transfer.accountId);
    expect(read.outcome === "found" && read.transfer).toEqual(events[1]?.data);
  });

  it("gives each hop of a multi-hop transfer_apply its own event, in order, showing that hop's state", async () => {
    const transfer = await opened(10_000);
    await transferApplyDirectly(pool, transfer.id, "funds_reserved", ["submitted"], null);
    await transferApplyDirectly(pool, transfer.id, "submitted", ["compensating", "compensated"], "release", "provider_rejected");
    const events = await eventsOf(transfer.id);
    expect(events.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(events.map((e) => e.data.state)).toEqual(await historyOf(transfer.id));
    expect(events[3]?.data.history.map((h) => h.state)).toEqual(["started", "funds_reserved", "submitted", "compensating"]);
    const read = await transferForAccount(pool, transfer.id, transfer.accountId);
    expect(read.outcome === "found" && read.transfer).toEqual(events[4]?.data);
  });

  it("writes no event for a step that changes no state (a status check that found it still processing)", async () => {
    const transfer = await opened(10_000);
    await transferApplyDirectly(pool, transfer.id, "funds_reserved", ["submitted"], null);
    await transferApplyDirectly(pool, transfer.id, "submitted", [], null);
    expect((await eventsOf(transfer.id)).map((e) => e.data.state)).toEqual(["started", "funds_reserved", "submitted"]);
  });

  it("gives a bare history row, from any writer, its event in the same statement", async () => {
    const transfer = await opened(10_000);
    const { rows } = await pool.query<{ sequence: number }>(
      `WITH hop AS (UPDATE transfers SET state = 'submitted' WHERE id = $1 RETURNING id),
            h AS (INSERT INTO transfer_history (transfer_id, from_state, to_state, actor)
                  SELECT id, 'funds_reserved', 'submitted', 'saga' FROM hop RETURNING id)
       SELECT count(*)::int AS sequence FROM h`,
      [transfer.id],
    );
    expect(rows).toEqual([{ sequence: 1 }]);
    expect((await eventsOf(transfer.id)).map((e) => e.data.state)).toEqual(["started", "funds_reserved", "submitted"]);
  });
});

describe("no change without its event, no event without its change", () => {
  it("refuses at COMMIT a state change that records no history (hence no event), and keeps nothing", async () => {
    const transfer = await opened(10_000);
    await expect(pool.query("UPDATE transfers SET state = 'submitted' WHERE id = $1", [transfer.id])).rejects.toThrow(
      /its history \(and events\) say funds_reserved/,
    );
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("UPDATE transfers SET state = 'submitted' WHERE id = $1", [transfer.id]);
      await expect(client.query("COMMIT")).rejects.toThrow(/its history/);
    } finally {
      client.release();
    }
    const { rows } = await pool.query<{ state: string }>("SELECT state FROM transfers WHERE id = $1", [transfer.id]);
    expect(rows).toEqual([{ state: "funds_reserved" }]);
    expect(await eventsOf(transfer.id)).toHaveLength(2);
  });

  it("refuses an event without a change: no history row, or one that already has its event", async () => {
    const transfer = await opened(10_000);
    await expect(forgedEvent(transfer.id, "evt_forged", "transfer.updated")).rejects.toThrow(/transfer_events_updated_has_history/);
    await expect(
      pool.query(
        `INSERT INTO transfer_events (id, transfer_id, sequence, type, history_id, occurred_at, data)
         SELECT 'evt_forged', $1, 3, 'transfer.updated', max(id), now(), '{}' FROM transfer_history WHERE transfer_id = $1`,
        [transfer.id],
      ),
    ).rejects.toThrow(/transfer_events_one_per_history_row/);
    expect(await eventsOf(transfer.id)).toHaveLength(2);
  });

  it("gives a bare return row, from any writer, its transfer.returned event in the same statement", async () => {
    const transfer = await opened(10_000);
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(
        `WITH tx AS (INSERT INTO ledger_transactions (op_key, kind, account_id, amount_cents)
                     VALUES ('return:bare-' || $1, 'return', $2, 100) RETURNING id)
         INSERT INTO transfer_returns (id, transfer_id, amount_cents, reason, returned_at, ledger_transaction_id)
         SELECT 'bare-' || $1, $1::uuid, 100, 'other', now(), id FROM tx`,
        [transfer.id, transfer.accountId],
      );
      const { rows } = await client.query<{ sequence: number; type: string }>(
        "SELECT sequence, type FROM transfer_events WHERE transfer_id = $1 ORDER BY sequence",
        [transfer.id],
      );
      expect(rows.map((r) => [r.sequence, r.type])).toEqual([
        [1, "transfer.updated"],
        [2, "transfer.updated"],
        [3, "transfer.returned"],
      ]);
    } finally {
      // A return without its ledger entries: it only had to show its event, not to stay.
      await client.query("ROLLBACK");
      client.release();
    }
  });

  it("refuses at COMMIT a transfer.returned event for money that never came back", async () => {
    const transfer = await opened(10_000);
    await expect(forgedEvent(transfer.id, "evt_forged_return", "transfer.returned")).rejects.toThrow(
      /has 0 returns but 1 transfer.returned events/,
    );
    expect(await eventsOf(transfer.id)).toHaveLength(2);
  });

  it("keeps events as they happened: only delivery columns change, and none is deleted", async () => {
    const transfer = await opened(10_000);
    const [first] = await eventsOf(transfer.id);
    await expect(pool.query(`UPDATE transfer_events SET data = '{}' WHERE id = $1`, [first?.id])).rejects.toThrow(/append-only/);
    await expect(pool.query("DELETE FROM transfer_events WHERE id = $1", [first?.id])).rejects.toThrow(/append-only/);
    await expect(pool.query("DELETE FROM transfer_history WHERE transfer_id = $1", [transfer.id])).rejects.toThrow(/append-only/);
    const moved = await pool.query("UPDATE transfer_events SET attempts = attempts WHERE id = $1", [first?.id]);
    expect(moved.rowCount).toBe(1);
  });
});
