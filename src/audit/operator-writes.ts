// Operator writes that record their actor: each is one SQL function call that writes the
// effect and its operator_actions row in one transaction (drizzle/functions/ops_*.sql).

import type { Operator } from "../auth/operators.ts";
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";
import { asResult, type CreateAccountResult, createAccountResults } from "../ledger/results.ts";

async function callResult(db: Queryable, sql: string, values: unknown[]): Promise<unknown> {
  const { rows } = await db.query<{ result: unknown }>(sql, values);
  return rows[0]?.result;
}

export async function createAccountAs(db: Queryable, accountId: string, actor: string): Promise<CreateAccountResult> {
  return asResult(createAccountResults, await callResult(db, "SELECT ops_create_account($1, $2) AS result", [accountId, actor]));
}

export type CreditOutcome =
  | { outcome: "credited" | "already_credited" }
  | { outcome: "requested" | "already_requested"; credit_id: string }
  | { outcome: "exists_with_different_fields" | "account_not_found" };

export interface OperatorCredit {
  accountId: string;
  idempotencyKey: string;
  amountCents: number;
  operator: Operator;
  /** OPS_CREDIT_APPROVAL_ABOVE_CENTS: above it, alone or with the operator's last 24 h, a credit waits. */
  approvalAboveCents: number;
}

/** A credit applied at once, or recorded for a second person (four eyes): the database decides. */
export async function creditAs(db: Queryable, credit: OperatorCredit): Promise<CreditOutcome> {
  const result = (await callResult(db, "SELECT ops_credit($1, $2, $3, $4, $5, $6, $7) AS result", [
    crypto.randomUUID(),
    credit.accountId,
    credit.idempotencyKey,
    credit.amountCents,
    credit.operator.actor,
    credit.operator.operatorId,
    credit.approvalAboveCents,
  ])) as CreditOutcome | undefined;
  if (result === undefined) throw new Error("ops_credit returned nothing");
  return result;
}

export type CreditApprovalResult =
  | { outcome: "approved" | "already_approved"; account_id: string }
  | { outcome: "approved_by_another"; account_id: string; approved_by: string }
  | { outcome: "not_found" | "machine_cannot_approve" | "same_actor" };

export async function approveCreditAs(db: Queryable, creditId: string, operator: Operator): Promise<CreditApprovalResult> {
  const result = (await callResult(db, "SELECT ops_approve_credit($1, $2, $3) AS result", [
    creditId,
    operator.actor,
    operator.operatorId,
  ])) as CreditApprovalResult | undefined;
  if (result === undefined) throw new Error("ops_approve_credit returned nothing");
  return result;
}

/** An action whose effect is not a write of ours (a reconciliation run): recorded after it. */
export async function recordAction(
  db: Queryable,
  action: { actor: string; action: "reconciliation_run"; accountId: string | null; details: JsonObject },
): Promise<void> {
  await db.query("INSERT INTO operator_actions (actor, action, account_id, details) VALUES ($1, $2, $3, $4::jsonb)", [
    action.actor,
    action.action,
    action.accountId,
    JSON.stringify(action.details),
  ]);
}
