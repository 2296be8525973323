// One provider reconciliation run (CONTRACT §5): the statement first (HTTP, outside any
// database transaction), then our side of the window, the pure match, a status check of each
// completed transfer the statement left out (before calling it missing), the returns applied
// through transfer_return_apply (once each, whoever else reports them), and the run recorded
// with its cases and its audit row. The caller raises the alert.
import type { Queryable } from "../db/queryable.ts";
import type { PixProvider, StatementOutcome } from "../provider/port.ts";
import type { ReturnApplyResult } from "../transfers/returns.ts";
import { transferReturnApply } from "../transfers/returns.ts";
import { type Divergence, type FoundReturn, judgeUnlisted, matchStatement, oursView } from "./match.ts";
import { type OurRow, ourTransfers, type RunJson, recordRun, runById } from "./store.ts";
import type { Window } from "./window.ts";

/** Status checks one run makes at most (transfers the statement left out, returns it only flags). */
export const statusChecksPerRunMax = 500;
/** Status checks in flight at once: the provider's rate limits are shared with live sends. */
const statusChecksConcurrencyMax = 5;

export interface RunPorts {
  db: Queryable;
  provider: PixProvider;
  /** Wakes a transfer's object so the event of a return it applied goes out now (best effort). */
  returned?: (transferId: string) => Promise<void>;
}

async function inBatches<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += statusChecksConcurrencyMax) {
    results.push(...(await Promise.all(items.slice(i, i + statusChecksConcurrencyMax).map(work))));
  }
  return results;
}

function statementProblem(statement: StatementOutcome, cut: boolean, checksCut: boolean): string | null {
  if (!statement.complete) return statement.why;
  if (cut) return "too_many_transfers";
  return checksCut ? "too_many_status_checks" : null;
}

/** A return the ledger refused (another transfer's id, or more than was sent) is for a person. */
function refusedReturn(row: OurRow, found: FoundReturn, result: ReturnApplyResult): Divergence | null {
  if (result !== "exists_with_different_fields" && result !== "exceeds_transfer_amount") return null;
  return {
    kind: "amount_mismatch",
    transferId: row.id,
    endToEndId: row.endToEndId,
    ours: oursView(row),
    provider: {
      status: "confirmed",
      amount_cents: found.found.amountCents,
      end_to_end_id: null,
      detail: `return ${found.found.id}: ${result}`,
    },
  };
}

export async function runProviderReconciliation(ports: RunPorts, window: Window, actor: string): Promise<RunJson> {
  const statement = await ports.provider.statement(window);
  const { rows, cut } = await ourTransfers(
    ports.db,
    window,
    statement.items.map((i) => i.idempotencyKey),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const match = matchStatement(rows, statement);
  const divergences = [...match.divergences];
  const returns = [...match.returns];

  const toAsk = [...match.unlisted, ...match.askReturns].flatMap((t) => byId.get(t.id) ?? []);
  const asked = toAsk.slice(0, statusChecksPerRunMax);
  const unlistedIds = new Set(match.unlisted.map((t) => t.id));
  for (const { row, answer } of await inBatches(asked, async (row) => ({ row, answer: await ports.provider.status(row.order) }))) {
    const judged = judgeUnlisted(row, answer);
    returns.push(...judged.returns);
    if (unlistedIds.has(row.id) && judged.divergence !== null) divergences.push(judged.divergence);
  }

  let returnsApplied = 0;
  // Oldest first per transfer, one short transaction each under the transfer's lock.
  const ordered = [...returns].sort((a, b) => a.transferId.localeCompare(b.transferId) || a.found.atMs - b.found.atMs);
  const woken = new Set<string>();
  for (const found of ordered) {
    const row = byId.get(found.transferId);
    if (row === undefined) continue;
    const result = await transferReturnApply(ports.db, found.transferId, found.found);
    if (result === "applied") {
      returnsApplied += 1;
      woken.add(found.transferId);
    }
    const refused = refusedReturn(row, found, result);
    if (refused !== null) divergences.push(refused);
  }
  await Promise.allSettled([...woken].map((id) => ports.returned?.(id)));

  const runId = await recordRun(ports.db, {
    window,
    actor,
    statementProblem: statementProblem(statement, cut, toAsk.length > asked.length),
    checked: match.checked,
    returnsApplied,
    divergences,
  });
  const run = await runById(ports.db, runId);
  if (run === null) throw new Error(`provider reconciliation run ${runId} was not recorded`);
  return run;
}
