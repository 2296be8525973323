// The ledger's tables. Invariants live here as constraints, and again in the SQL functions
// (drizzle/functions/) that are the only writers.
import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { at, cents } from "../db/columns.ts";

/**
 * Customer accounts keep a running balance and held amount on the row. House accounts
 * (funding, clearing) never do: their balance is the sum of their entries, so settling and
 * crediting never contend on one hot house row (see docs/ledger.md).
 */
export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["customer", "funding", "clearing"] })
      .notNull()
      .default("customer"),
    balanceCents: cents("balance_cents").notNull().default(0),
    heldCents: cents("held_cents").notNull().default(0),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("accounts_kind_known", sql`${t.kind} IN ('customer', 'funding', 'clearing')`),
    check("accounts_balance_not_negative", sql`${t.balanceCents} >= 0`),
    check("accounts_held_not_negative", sql`${t.heldCents} >= 0`),
    check("accounts_available_not_negative", sql`${t.heldCents} <= ${t.balanceCents}`),
    check("accounts_house_rows_static", sql`${t.kind} = 'customer' OR (${t.balanceCents} = 0 AND ${t.heldCents} = 0)`),
  ],
);

/** A row's account, which must exist (accounts are never deleted). */
export const accountRef = () =>
  text("account_id")
    .notNull()
    .references(() => accounts.id);

/** The key of a table with at most one row per account: the account's own id. */
export const accountKey = () =>
  text("account_id")
    .primaryKey()
    .references(() => accounts.id);

/** One hold per saga (its id is the transfer id); resolved at most once. */
export const holds = pgTable(
  "holds",
  {
    id: uuid("id").primaryKey(),
    // DEFERRABLE INITIALLY DEFERRED (drizzle/0001_checks_and_triggers.sql; drizzle cannot say so): checked at COMMIT,
    // when ledger_hold already holds the account row, so a hot account makes no MultiXacts.
    accountId: accountRef(),
    amountCents: cents("amount_cents").notNull(),
    status: text("status", { enum: ["held", "settled", "released", "refused"] }).notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    resolvedAt: at("resolved_at"),
  },
  (t) => [
    check("holds_amount_positive", sql`${t.amountCents} > 0`),
    check("holds_status_known", sql`${t.status} IN ('held', 'settled', 'released', 'refused')`),
    check("holds_resolved_iff_not_held", sql`(${t.status} = 'held') = (${t.resolvedAt} IS NULL)`),
    index("holds_open_by_account").on(t.accountId).where(sql`${t.status} = 'held'`),
  ],
);

/** A balanced set of entries, named by a unique operation key (the idempotency key). */
export const ledgerTransactions = pgTable(
  "ledger_transactions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    opKey: text("op_key").notNull().unique(),
    kind: text("kind", { enum: ["credit", "settle", "return"] }).notNull(),
    accountId: accountRef(),
    amountCents: cents("amount_cents").notNull(),
    holdId: uuid("hold_id")
      .references(() => holds.id)
      .unique(),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("ledger_transactions_amount_positive", sql`${t.amountCents} > 0`),
    check("ledger_transactions_kind_known", sql`${t.kind} IN ('credit', 'settle', 'return')`),
    check("ledger_transactions_settle_has_hold", sql`(${t.kind} = 'settle') = (${t.holdId} IS NOT NULL)`),
  ],
);

/** Append-only double entry: triggers refuse UPDATE, DELETE and TRUNCATE. */
export const entries = pgTable(
  "entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    transactionId: bigint("transaction_id", { mode: "number" })
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: accountRef(),
    amountCents: cents("amount_cents").notNull(),
    /** Running balance after this entry, for customer accounts; null for house accounts. */
    balanceAfterCents: cents("balance_after_cents"),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("entries_amount_not_zero", sql`${t.amountCents} <> 0`),
    index("entries_by_account").on(t.accountId, t.id),
    index("entries_by_transaction").on(t.transactionId),
  ],
);
