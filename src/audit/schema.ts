// Who did what (CONTRACT §5): every operator action with its actor (an Access email, or
// `ops-token`), and credits waiting for a second operator's approval (four eyes).
import { sql } from "drizzle-orm";
import { bigserial, check, index, jsonb, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { at, cents } from "../db/columns.ts";
import { accountRef } from "../ledger/schema.ts";
import { operatorActionKinds } from "./actions.ts";

/**
 * Append-only: written in the same statement (or trigger) as the action it records; triggers
 * refuse UPDATE, DELETE and TRUNCATE (drizzle/0002_operator_identity.sql).
 */
export const operatorActions = pgTable(
  "operator_actions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: at("at").notNull().defaultNow(),
    actor: text("actor").notNull(),
    /**
     * Who the actor is, as four eyes tells people apart: `access:<sub>` or `ops-token` (an
     * email changes and has aliases). Recorded for credits, which the 24-hour rule sums by it.
     */
    operatorId: text("operator_id"),
    action: text("action").notNull(),
    accountId: text("account_id"),
    transferId: uuid("transfer_id"),
    details: jsonb("details").notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [
    check("operator_actions_action_known", sql`${t.action} IN (${sql.raw(operatorActionKinds.map((k) => `'${k}'`).join(", "))})`),
    check("operator_actions_actor_present", sql`length(${t.actor}) BETWEEN 1 AND 320`),
    index("operator_actions_by_account").on(t.accountId, t.id.desc()),
    index("operator_actions_by_actor").on(t.actor, t.id.desc()),
  ],
);

/** A credit above OPS_CREDIT_APPROVAL_ABOVE_CENTS: applied only when another operator approves it. */
export const creditRequests = pgTable(
  "credit_requests",
  {
    id: uuid("id").primaryKey(),
    accountId: accountRef(),
    amountCents: cents("amount_cents").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** The requester's email (or `ops-token`), as the audit shows them. */
    requestedBy: text("requested_by").notNull(),
    /** The requester as four eyes compares people: `access:<sub>` or `ops-token`. */
    requestedById: text("requested_by_id").notNull(),
    requestedAt: at("requested_at").notNull().defaultNow(),
    approvedBy: text("approved_by"),
    approvedById: text("approved_by_id"),
    approvedAt: at("approved_at"),
  },
  (t) => [
    unique("credit_requests_key").on(t.accountId, t.idempotencyKey),
    check("credit_requests_amount_positive", sql`${t.amountCents} > 0`),
    // Four eyes, in the database too: the requester can never be the approver, whatever
    // email either signed in with.
    check("credit_requests_four_eyes", sql`${t.approvedById} IS NULL OR ${t.approvedById} <> ${t.requestedById}`),
    check("credit_requests_machines_never_approve", sql`${t.approvedById} IS DISTINCT FROM 'ops-token'`),
    check(
      "credit_requests_approved_together",
      sql`(${t.approvedBy} IS NULL) = (${t.approvedAt} IS NULL) AND (${t.approvedBy} IS NULL) = (${t.approvedById} IS NULL)`,
    ),
  ],
);
