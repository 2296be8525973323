// Provider reconciliation's reads and writes: each one SQL function call or one query.
import type { Queryable } from "../db/queryable.ts";
import type { Json } from "../json.ts";
import type { PixKeyType } from "../lib/ids.ts";
import { uuidPatternAnyCase } from "../lib/ids.ts";
import type { PixOrder } from "../provider/port.ts";
import type { FailureReason, TransferState } from "../saga/states.ts";
import type { CaseDecision } from "./case-decisions.ts";
import type { Divergence, OurTransfer } from "./match.ts";
import type { Window } from "./window.ts";

/** Transfers one run compares at most: a day's sends many times over; past it the run says so. */
export const transfersPerRunMax = 50_000;

export type OurRow = OurTransfer & { order: PixOrder };

type TransferRow = {
  id: string;
  state: TransferState;
  amount_cents: string;
  end_to_end_id: string | null;
  failure_reason: FailureReason | null;
  released_at_ms: string | null;
  return_ids: string[];
  in_window: boolean;
  pix_key: string;
  pix_key_type: PixKeyType;
  description: string | null;
};

/** Ours in the window, and those the statement names; `cut` when the window held more than the bound. */
export async function ourTransfers(
  db: Queryable,
  window: Window,
  listedKeys: readonly string[],
): Promise<{ rows: OurRow[]; cut: boolean }> {
  const listed = listedKeys.filter((key) => uuidPatternAnyCase.test(key)).map((key) => key.toLowerCase());
  const { rows } = await db.query<TransferRow>("SELECT * FROM provider_reconciliation_transfers($1, $2, $3::uuid[], $4)", [
    new Date(window.fromMs).toISOString(),
    new Date(window.toMs).toISOString(),
    listed,
    transfersPerRunMax + 1,
  ]);
  const inWindow = rows.filter((r) => r.in_window).length;
  return {
    cut: inWindow > transfersPerRunMax,
    rows: rows.map((r) => ({
      id: r.id,
      state: r.state,
      amountCents: Number(r.amount_cents),
      endToEndId: r.end_to_end_id,
      failureReason: r.failure_reason,
      releasedAtMs: r.released_at_ms === null ? null : Number(r.released_at_ms),
      returnIds: r.return_ids,
      inWindow: r.in_window,
      order: {
        idempotencyKey: r.id,
        amountCents: Number(r.amount_cents),
        pixKey: r.pix_key,
        pixKeyType: r.pix_key_type,
        description: r.description,
      },
    })),
  };
}

/** A divergence as the API and the run's record show it (CONTRACT §5). */
export function divergenceJson(d: Divergence): Json {
  return { kind: d.kind, transfer_id: d.transferId, end_to_end_id: d.endToEndId, ours: d.ours, provider: d.provider };
}

export interface RunRecord {
  window: Window;
  actor: string;
  /** Null when the whole statement was read. */
  statementProblem: string | null;
  checked: number;
  returnsApplied: number;
  divergences: readonly Divergence[];
}

export async function recordRun(db: Queryable, run: RunRecord): Promise<number> {
  const { rows } = await db.query<{ id: string }>("SELECT provider_reconciliation_record($1, $2, $3, $4, $5, $6, $7::jsonb) AS id", [
    new Date(run.window.fromMs).toISOString(),
    new Date(run.window.toMs).toISOString(),
    run.actor,
    run.statementProblem,
    run.checked,
    run.returnsApplied,
    JSON.stringify(run.divergences.map(divergenceJson)),
  ]);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error("provider_reconciliation_record returned nothing");
  return Number(id);
}

/** A run as GET /ops/reconciliation/provider/latest answers it. */
export type RunJson = {
  run_id: string;
  from: string;
  to: string;
  actor: string;
  ran_at: string;
  ok: boolean;
  checked: number;
  returns_applied: number;
  statement: { complete: boolean; problem: string | null };
  divergences: Json[];
};

const runJsonSql = `jsonb_build_object('run_id', r.id::text, 'from', rfc3339(r.window_from), 'to', rfc3339(r.window_to),
  'actor', r.actor, 'ran_at', rfc3339(r.ran_at), 'ok', r.ok, 'checked', r.checked, 'returns_applied', r.returns_applied,
  'statement', jsonb_build_object('complete', r.statement_complete, 'problem', r.statement_problem), 'divergences', r.divergences)`;

/** The newest runs first; `limit` 1 is the latest. */
export async function recentRuns(db: Queryable, limit: number): Promise<RunJson[]> {
  const { rows } = await db.query<{ run: RunJson }>(
    `SELECT ${runJsonSql} AS run FROM provider_reconciliation_runs r ORDER BY r.id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.run);
}

export async function runById(db: Queryable, runId: number): Promise<RunJson | null> {
  const { rows } = await db.query<{ run: RunJson }>(`SELECT ${runJsonSql} AS run FROM provider_reconciliation_runs r WHERE r.id = $1`, [
    runId,
  ]);
  return rows[0]?.run ?? null;
}

export type CaseJson = {
  transfer_id: string;
  account_id: string;
  amount_cents: number;
  end_to_end_id: string | null;
  opened_at: string;
  run_id: string;
  evidence: Json;
  decision: { decision: CaseDecision; note: string; decided_by: string; decided_at: string } | null;
};

/** Paid-after-release cases, open ones only when `open`, oldest first (the queue's order); or one. */
export async function listCases(db: Queryable, options: { open: boolean; limit: number; transferId?: string }): Promise<CaseJson[]> {
  const { rows } = await db.query<{ item: CaseJson }>(
    `SELECT jsonb_build_object('transfer_id', c.transfer_id, 'account_id', t.account_id, 'amount_cents', t.amount_cents,
              'end_to_end_id', c.end_to_end_id, 'opened_at', rfc3339(c.opened_at), 'run_id', c.run_id::text, 'evidence', c.evidence,
              'decision', CASE WHEN c.decided_at IS NULL THEN NULL ELSE jsonb_build_object('decision', c.decision, 'note', c.note,
                'decided_by', c.decided_by, 'decided_at', rfc3339(c.decided_at)) END) AS item
       FROM provider_reconciliation_cases c JOIN transfers t ON t.id = c.transfer_id
      WHERE (NOT $1::boolean OR c.decided_at IS NULL) AND ($3::uuid IS NULL OR c.transfer_id = $3)
      ORDER BY c.opened_at, c.transfer_id LIMIT $2`,
    [options.open, options.limit, options.transferId ?? null],
  );
  return rows.map((r) => r.item);
}

export type DecideResult = "decided" | "already_decided" | "not_found";

export async function decideCase(
  db: Queryable,
  transferId: string,
  actor: string,
  decision: CaseDecision,
  note: string,
): Promise<DecideResult> {
  const { rows } = await db.query<{ result: DecideResult }>("SELECT provider_case_decide($1, $2, $3, $4) AS result", [
    transferId,
    actor,
    decision,
    note,
  ]);
  const result = rows[0]?.result;
  if (result !== "decided" && result !== "already_decided" && result !== "not_found")
    throw new Error(`provider_case_decide answered ${String(result)}`);
  return result;
}
