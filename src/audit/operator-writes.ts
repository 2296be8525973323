// Operator writes that record their actor: each is one SQL function call that writes the
// effect and its operator_actions row in one transaction (drizzle/functions/ops_*.sql).
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";
import { asResult, type CreateAccountResult, type CreditResult, createAccountResults, creditResults } from "../ledger/results.ts";

async function callResult(db: Queryable, sql: string, values: unknown[]): Promise<unknown> {
  const { rows } = await db.query<{ result: unknown }>(sql, values);
  return rows[0]?.result;
}

export async function createAccountAs(db: Queryable, accountId: string, actor: string): Promise<CreateAccountResult> {
  return asResult(createAccountResults, await callResult(db, "SELECT ops_create_account($1, $2) AS result", [accountId, actor]));
}

/** A credit applied at once (at or below the approval threshold). */
export async function creditAs(
  db: Queryable,
  accountId: string,
  idempotencyKey: string,
  amountCents: number,
  actor: string,
): Promise<CreditResult> {
  const result = await callResult(db, "SELECT ops_credit($1, $2, $3, $4) AS result", [accountId, idempotencyKey, amountCents, actor]);
  return asResult(creditResults, result);
}

export type CreditRequestResult =
  | { outcome: "requested" | "already_requested"; credit_id: string }
  | { outcome: "exists_with_different_fields" | "account_not_found" };

/** A credit above the threshold: recorded for a second operator, not applied. */
export async function requestCreditAs(
  db: Queryable,
  accountId: string,
  idempotencyKey: string,
  amountCents: number,
  actor: string,
): Promise<CreditRequestResult> {
  const result = (await callResult(db, "SELECT ops_request_credit($1, $2, $3, $4, $5) AS result", [
    crypto.randomUUID(),
    accountId,
    idempotencyKey,
    amountCents,
    actor,
  ])) as CreditRequestResult | undefined;
  if (result === undefined) throw new Error("ops_request_credit returned nothing");
  return result;
}

export type CreditApprovalResult =
  | { outcome: "approved" | "already_approved"; account_id: string }
  | { outcome: "approved_by_another"; account_id: string; approved_by: string }
  | { outcome: "not_found" | "machine_cannot_approve" | "same_actor" };

export async function approveCreditAs(db: Queryable, creditId: string, actor: string): Promise<CreditApprovalResult> {
  const result = (await callResult(db, "SELECT ops_approve_credit($1, $2) AS result", [creditId, actor])) as
    | CreditApprovalResult
    | undefined;
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
