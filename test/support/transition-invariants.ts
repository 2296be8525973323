// I8: every transition of every transfer's history follows the one before it, is a transition
// of src/saga/states.ts, and is justified by a provider answer, the saga's own rules or an
// operator (or the owner's cancel of a scheduled transfer), never by a webhook.
import type { PoolClient } from "@neondatabase/serverless";
import { canTransition, type TransferState, transferStates } from "../../src/saga/states.ts";
import { type Finding, finding } from "./invariant-finding.ts";

interface HistoryRow {
  id: string;
  transfer_id: string;
  from_state: TransferState | null;
  to_state: TransferState;
  previous: TransferState | null;
  actor: string;
  call_kind: string | null;
  call_outcome: string | null;
  call_recorded: boolean;
  operator_note: boolean;
}

/** What a provider answer (its recorded outcome label) can justify. */
function providerJustifies(to: TransferState, outcome: string): boolean {
  if (to === "submitted") return outcome === "accepted";
  if (to === "completed") return outcome === "accepted" || outcome === "confirmed";
  if (to === "compensating" || to === "compensated") return outcome.startsWith("rejected:") || outcome === "not_found";
  return false;
}

/** What the saga may decide on its own: holds, limits, unknown sends, deadlines, finishing a compensation. */
function sagaJustifies(row: HistoryRow): boolean {
  switch (row.to_state) {
    case "scheduled":
    case "started":
    case "funds_reserved":
    case "needs_review":
      return true;
    case "submitted":
      return row.call_kind === "send" && (row.call_outcome ?? "").startsWith("unknown:");
    case "compensated":
      return row.from_state === "started" || row.from_state === "compensating";
    default:
      return false;
  }
}

export async function transitionChecks(db: PoolClient, scope: readonly string[] | null): Promise<Finding[]> {
  const { rows } = await db.query<HistoryRow>(
    `SELECT h.id::text, h.transfer_id::text, h.from_state, h.to_state, h.actor,
            lag(h.to_state) OVER (PARTITION BY h.transfer_id ORDER BY h.id) AS previous,
            h.evidence->>'provider_call' AS call_kind, h.evidence->>'outcome' AS call_outcome,
            EXISTS (SELECT 1 FROM provider_calls p WHERE p.transfer_id = h.transfer_id
                       AND p.kind = h.evidence->>'provider_call' AND p.outcome = h.evidence->>'outcome') AS call_recorded,
            (h.evidence ? 'operator_note') AS operator_note
       FROM transfer_history h JOIN transfers t ON t.id = h.transfer_id
      WHERE ($1::text[] IS NULL OR t.account_id = ANY($1))
      ORDER BY h.transfer_id, h.id`,
    [scope],
  );
  const found: Finding[] = [];
  for (const row of rows) {
    const subject = row.transfer_id;
    const hop = `${row.from_state ?? "(new)"} -> ${row.to_state} by ${row.actor}`;
    if (row.from_state !== row.previous) found.push(finding(subject, `${hop} does not follow ${row.previous ?? "(nothing)"}`));
    const allowed =
      row.from_state === null ? row.to_state === "started" || row.to_state === "scheduled" : canTransition(row.from_state, row.to_state);
    if (!allowed) found.push(finding(subject, `${hop} is not a transition`));
    if (!transferStates.includes(row.to_state)) found.push(finding(subject, `unknown state ${row.to_state}`));
    const justified =
      row.actor === "provider"
        ? row.call_recorded && providerJustifies(row.to_state, row.call_outcome ?? "")
        : row.actor === "operator"
          ? row.from_state === "needs_review" && row.operator_note
          : row.actor === "client"
            ? row.from_state === "scheduled" && row.to_state === "canceled"
            : row.actor === "saga" && sagaJustifies(row);
    if (!justified) {
      found.push(finding(subject, `${hop} not justified (call ${row.call_kind ?? "none"}: ${row.call_outcome ?? "none"})`));
    }
  }
  return found;
}
