// The devices registered for each account (CONTRACT §2 "Devices"): a transfer from any other
// device is capped (drizzle/functions/device_rule_verdict.sql). A device counts as registered
// from `effective_at` on: the client's request waits DEVICE_REGISTRATION_DELAY_MS, an operator's
// is at once. Removal deletes the row; asking again starts a new wait.
import { sql } from "drizzle-orm";
import { check, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at } from "../db/columns.ts";
import { accountRef } from "../ledger/schema.ts";
import { deviceNameLengthMax } from "./bounds.ts";

export const devices = pgTable(
  "devices",
  {
    accountId: accountRef(),
    /** The client token's `device_id`. */
    deviceId: text("device_id").notNull(),
    name: text("name").notNull(),
    /** Registered from this instant (business time) on; pending before it. */
    effectiveAt: at("effective_at").notNull(),
    /** `client`, or the operator who registered it (an Access email, or `ops-token`); for the console, never for clients. */
    registeredBy: text("registered_by").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.deviceId] }),
    check("devices_device_id_printable", sql`${t.deviceId} ~ '^[\\x20-\\x7e]{1,128}$'`),
    check("devices_name_bounded", sql`char_length(${t.name}) BETWEEN 1 AND ${sql.raw(String(deviceNameLengthMax))}`),
    check("devices_registered_by_present", sql`length(${t.registeredBy}) BETWEEN 1 AND 320`),
  ],
);
