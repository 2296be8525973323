// The test clock's advances, one row per advance with the offset it left, so that business time
// at a past wall-clock moment is known: that moment plus the offset in force then
// (drizzle/functions/test_clock_business_at.sql). A rule counted from a recorded event (a
// contestation's 80 days from its transfer's completion) needs the event's business time, and
// the offset has grown since. Only the trigger on test_clock writes it; read only with the
// sandbox on, like test_clock itself.
import { bigint, bigserial, index, pgTable } from "drizzle-orm/pg-core";
import { at } from "../db/columns.ts";

export const testClockAdvances = pgTable(
  "test_clock_advances",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** test_clock.advanced_at: the wall-clock moment of the advance. */
    advancedAt: at("advanced_at").notNull(),
    /** The offset from then on. */
    offsetMs: bigint("offset_ms", { mode: "number" }).notNull(),
  },
  (t) => [index("test_clock_advances_by_time").on(t.advancedAt)],
);
