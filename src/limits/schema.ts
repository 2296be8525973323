// Pix limits: each account's own limits (absent columns mean the configured defaults), the
// increases that wait 24 h, and the usage counters (one per São Paulo day, one per night window)
// that the opening transaction consumes.
import { sql } from "drizzle-orm";
import { check, date, jsonb, pgTable, primaryKey, text, time } from "drizzle-orm/pg-core";
import { at, cents } from "../db/columns.ts";
import { sqlStringList } from "../db/sql-list.ts";
import { accountKey, accountRef } from "../ledger/schema.ts";
import { pixKeyTypes } from "../lib/ids.ts";
import { limitNames } from "./names.ts";
import { trustedRecipientNameLengthMax } from "./trusted-recipient-bounds.ts";

export const accountLimits = pgTable(
  "account_limits",
  {
    accountId: accountKey(),
    perTransferCents: cents("per_transfer_cents"),
    dailyCents: cents("daily_cents"),
    nightPerTransferCents: cents("night_per_transfer_cents"),
    /** The cap on the sum of one night window's transfers. */
    nightTotalCents: cents("night_total_cents"),
    /** Start of the nighttime window (São Paulo); it always ends at 06:00. */
    nightStartsAt: time("night_starts_at"),
  },
  (t) => [
    check("account_limits_per_transfer_positive", sql`${t.perTransferCents} > 0`),
    check("account_limits_daily_not_negative", sql`${t.dailyCents} >= 0`),
    check("account_limits_night_positive", sql`${t.nightPerTransferCents} > 0`),
    check("account_limits_night_total_not_negative", sql`${t.nightTotalCents} >= 0`),
    check("account_limits_night_starts_evening", sql`${t.nightStartsAt} >= '18:00' AND ${t.nightStartsAt} <= '23:59'`),
  ],
);

/**
 * An operator's increase, in force from `effective_at` (24 h after it was asked for); until then
 * account_limits holds the value in force. `value` is what the column will hold: a number of
 * cents, an "HH:MM" start for night_starts_at, or null for the default.
 */
export const accountLimitsPending = pgTable(
  "account_limits_pending",
  {
    accountId: accountRef(),
    limitName: text("limit_name").notNull(),
    value: jsonb("value").notNull(),
    effectiveAt: at("effective_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.limitName] }),
    check("account_limits_pending_limit_known", sql`${t.limitName} IN (${sql.raw(sqlStringList(limitNames))})`),
    check(
      "account_limits_pending_value_typed",
      sql`jsonb_typeof(${t.value}) = 'null' OR jsonb_typeof(${t.value}) = CASE WHEN ${t.limitName} = 'night_starts_at' THEN 'string' ELSE 'number' END`,
    ),
  ],
);

/**
 * What an account has committed in one limit window: a São Paulo day (`day`, starting on that
 * date) or a night window (`night`, starting on its evening, so a transfer at 05:59 counts toward
 * the evening before), and the part of a day sent from unregistered devices (`new_device`, the
 * Central Bank's cap). Consumed with the hold, given back on compensation.
 */
export const limitUsage = pgTable(
  "limit_usage",
  {
    accountId: accountRef(),
    period: text("period").notNull(),
    startsOn: date("starts_on", { mode: "string" }).notNull(),
    usedCents: cents("used_cents").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.period, t.startsOn] }),
    check("limit_usage_period_known", sql`${t.period} IN ('day', 'night', 'new_device')`),
    check("limit_usage_used_not_negative", sql`${t.usedCents} >= 0`),
  ],
);

/**
 * The recipients an account trusts (CONTRACT §2 "Trusted recipients"): from `effective_at`
 * (business time) a transfer to one is exempt from the night rules and the new-key review. The
 * key is stored normalised, as on transfers, so a transfer finds its row by equality on the key.
 */
export const trustedRecipients = pgTable(
  "trusted_recipients",
  {
    accountId: accountRef(),
    pixKeyType: text("pix_key_type").notNull(),
    pixKey: text("pix_key").notNull(),
    name: text("name"),
    effectiveAt: at("effective_at").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.pixKeyType, t.pixKey] }),
    check("trusted_recipients_pix_key_type_known", sql`${t.pixKeyType} IN (${sql.raw(sqlStringList(pixKeyTypes))})`),
    check("trusted_recipients_name_bounded", sql`char_length(${t.name}) BETWEEN 1 AND ${sql.raw(String(trustedRecipientNameLengthMax))}`),
  ],
);

/**
 * Each account's directory-lookup budget (src/lookup/budget.ts), a token bucket kept as one
 * instant: the bucket holds (now - empty_at) / refill interval tokens, at most the bucket's size.
 * Spending moves empty_at forward; past now means the account owes tokens (a miss costs more
 * than was left).
 */
export const lookupBudgets = pgTable("lookup_budgets", {
  accountId: accountKey(),
  emptyAt: at("empty_at").notNull(),
});
