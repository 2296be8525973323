// Column shapes every table declares alike, so a table reads as its names: money as integer
// centavos read into a JS number (every amount is far below 2^53), times with their zone.
import { bigint, timestamp } from "drizzle-orm/pg-core";

export const cents = (name: string) => bigint(name, { mode: "number" });
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
