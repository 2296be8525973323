// Pix limits: each account's own limits (absent columns mean the configured defaults) and the
// per-account, per-São-Paulo-day usage counter that the opening transaction consumes.
import { sql } from "drizzle-orm";
import { bigint, check, date, pgTable, primaryKey, text, time } from "drizzle-orm/pg-core";
import { accounts } from "../ledger/schema.ts";

const cents = (name: string) => bigint(name, { mode: "number" });

export const accountLimits = pgTable(
  "account_limits",
  {
    accountId: text("account_id")
      .primaryKey()
      .references(() => accounts.id),
    perTransferCents: cents("per_transfer_cents"),
    dailyCents: cents("daily_cents"),
    nightPerTransferCents: cents("night_per_transfer_cents"),
    /** Start of the nighttime window (São Paulo); it always ends at 06:00. */
    nightStartsAt: time("night_starts_at"),
  },
  (t) => [
    check("account_limits_per_transfer_positive", sql`${t.perTransferCents} > 0`),
    check("account_limits_daily_not_negative", sql`${t.dailyCents} >= 0`),
    check("account_limits_night_positive", sql`${t.nightPerTransferCents} > 0`),
    check("account_limits_night_starts_evening", sql`${t.nightStartsAt} >= '18:00' AND ${t.nightStartsAt} <= '23:59'`),
  ],
);

/** What an account has committed today: consumed with the hold, given back on compensation. */
export const dailyUsage = pgTable(
  "daily_usage",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    day: date("day", { mode: "string" }).notNull(),
    usedCents: cents("used_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] }), check("daily_usage_used_not_negative", sql`${t.usedCents} >= 0`)],
);
