// The test clock's one row (CONTRACT §4 "Test clock"): how far the sandbox has moved business
// time ahead of the wall clock. Only `POST /sandbox/clock` writes it, always adding a positive
// amount; no row means no advance yet. Never read with the sandbox off (src/clock/business-time.ts).
import { sql } from "drizzle-orm";
import { bigint, boolean, check, pgTable } from "drizzle-orm/pg-core";
import { at } from "../db/columns.ts";

export const testClock = pgTable(
  "test_clock",
  {
    /** Always true: the primary key makes the table hold one row at most. */
    singleton: boolean("singleton").primaryKey().default(true),
    offsetMs: bigint("offset_ms", { mode: "number" }).notNull(),
    advancedAt: at("advanced_at").notNull(),
  },
  (t) => [check("test_clock_one_row", sql`${t.singleton}`), check("test_clock_offset_not_negative", sql`${t.offsetMs} >= 0`)],
);
