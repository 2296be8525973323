import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: [
    "./src/ledger/schema.ts",
    "./src/transfers/schema.ts",
    "./src/transfers/contestation-schema.ts",
    "./src/limits/schema.ts",
    "./src/devices/schema.ts",
    "./src/audit/schema.ts",
    "./src/events/schema.ts",
    "./src/reconciliation/schema.ts",
    "./src/clock/schema.ts",
    "./src/clock/advances-schema.ts",
  ],
  out: "./drizzle",
  dbCredentials: { url: process.env.DATABASE_URL ?? "" },
});
