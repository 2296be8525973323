// The state machine of src/saga/states.ts is the database's too: the generated
// transfer_transition_allowed, the state and failure CHECKs and the transfers_due predicate
// say what states.ts says, and a transition it does not allow is refused by the database itself,
// whoever writes it (transfer_apply called directly, or a bare history row).
import { describe, expect, it } from "vitest";
import { canTransition, failureReasons, inFlightStates, type TransferState, transferStates } from "../../src/saga/states.ts";
import { applyChange } from "../../src/transfers/store.ts";
import { filePool } from "../support/pool-test.ts";
import { ledgerAccount, ledgerFootprint, openWithoutObject, transferApplyDirectly } from "../support/saga.ts";

const pool = filePool(2);

/** The quoted values of a CHECK or index predicate as PostgreSQL prints it: `'a'::text, ...`. */
function listedValues(definition: string): string[] {
  return [...definition.matchAll(/'([a-z_]+)'::text/g)].map((match) => match[1] ?? "");
}

async function openTransfer(balanceCents: number): Promise<{ id: string; state: TransferState }> {
  const saga = await openWithoutObject(pool, await ledgerAccount(pool, balanceCents), 1_000);
  return { id: saga.id, state: saga.state };
}

describe("the database's state machine is src/saga/states.ts", () => {
  it("allows exactly the transitions canTransition allows, and nothing from an unknown or missing state", async () => {
    const { rows } = await pool.query<{ from_state: TransferState; to_state: TransferState; allowed: boolean }>(
      `SELECT f AS from_state, t AS to_state, transfer_transition_allowed(f, t) AS allowed
         FROM unnest($1::text[]) f CROSS JOIN unnest($1::text[]) t`,
      [transferStates],
    );
    expect(rows).toHaveLength(transferStates.length ** 2);
    for (const row of rows) expect(row.allowed, `${row.from_state} -> ${row.to_state}`).toBe(canTransition(row.from_state, row.to_state));
    const { rows: odd } = await pool.query<{ unknown: boolean; missing: boolean }>(
      "SELECT transfer_transition_allowed('paid', 'completed') AS unknown, transfer_transition_allowed(NULL, 'started') AS missing",
    );
    expect(odd).toEqual([{ unknown: false, missing: false }]);
  });

  it("knows the same states and failure reasons, and indexes exactly the in-flight states as due", async () => {
    const { rows } = await pool.query<{ name: string; definition: string }>(
      `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
        WHERE conname IN ('transfers_state_known', 'transfers_failure_reason_known')
       UNION ALL
       SELECT indexname, indexdef FROM pg_indexes WHERE indexname = 'transfers_due'`,
    );
    const listed = Object.fromEntries(rows.map((row) => [row.name, listedValues(row.definition)]));
    expect(listed).toEqual({
      transfers_state_known: [...transferStates],
      transfers_failure_reason_known: [...failureReasons],
      transfers_due: [...inFlightStates],
    });
  });
});

describe("an impossible transition is refused by the database", () => {
  it("refuses transfer_apply's skipped hop, and keeps nothing of the step", async () => {
    const transfer = await openTransfer(10_000);
    expect(transfer.state).toBe("funds_reserved");
    // Settling straight from funds_reserved would skip the send.
    await expect(transferApplyDirectly(pool, transfer.id, "funds_reserved", ["completed"], "settle")).rejects.toThrow(
      /transfer_history_transition_allowed/,
    );
    const { rows } = await pool.query<{ state: string }>("SELECT state FROM transfers WHERE id = $1", [transfer.id]);
    expect(rows).toEqual([{ state: "funds_reserved" }]);
    expect(await ledgerFootprint(pool, transfer.id)).toEqual({
      holdStatus: "held",
      settleTransactions: 0,
      entries: 0,
      history: ["started", "funds_reserved"],
    });
  });

  it("refuses a multi-hop path with one impossible hop, and any way out of a terminal state", async () => {
    const reserved = await openTransfer(10_000);
    await expect(transferApplyDirectly(pool, reserved.id, "funds_reserved", ["submitted", "started"], null)).rejects.toThrow(
      /transfer_history_transition_allowed/,
    );
    const refused = await openTransfer(0);
    expect(refused.state).toBe("compensated");
    // Back into compensation: every other constraint holds (the failure reason is still due).
    await expect(transferApplyDirectly(pool, refused.id, "compensated", ["compensating"], null)).rejects.toThrow(
      /transfer_history_transition_allowed/,
    );
    expect((await ledgerFootprint(pool, refused.id)).history).toEqual(["started", "compensated"]);
  });

  it("refuses a bare history row that records an impossible hop (any writer, not only transfer_apply)", async () => {
    const transfer = await openTransfer(0);
    await expect(
      pool.query(
        "INSERT INTO transfer_history (transfer_id, from_state, to_state, actor) VALUES ($1, 'compensated', 'completed', 'saga')",
        [transfer.id],
      ),
    ).rejects.toThrow(/transfer_history_transition_allowed/);
    await expect(
      pool.query("INSERT INTO transfer_history (transfer_id, from_state, to_state, actor) VALUES ($1, NULL, 'submitted', 'saga')", [
        transfer.id,
      ]),
    ).rejects.toThrow(/transfer_history_transition_allowed/);
  });

  it("asserts the path in TypeScript before anything is sent to the database", async () => {
    const transfer = await openTransfer(10_000);
    const change = {
      path: ["completed" as const],
      ledger: "settle" as const,
      failureReason: null,
      failureCode: null,
      endToEndId: null,
      checksMade: 0,
      nextCheckAtMs: null,
      lastSentAtMs: null,
      reason: "test",
      actor: "saga" as const,
      sent: false,
      evidence: null,
    };
    await expect(applyChange(pool, transfer.id, "funds_reserved", change, null)).rejects.toThrow(
      "saga invariant violated: funds_reserved -> completed is not a transition",
    );
    expect((await ledgerFootprint(pool, transfer.id)).history).toEqual(["started", "funds_reserved"]);
  });
});
