// docs/performance.md lists every row a completed transfer writes and the fact each one holds.
// This keeps that table true: a transfer is opened, sent and completed through the saga's own
// store functions (test/support/store-path.ts), the three steps inside one transaction, and the rows
// each table gained (pg_stat_xact_user_tables) must be exactly the table's. Rolled back after.
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Queryable } from "../../src/db/queryable.ts";
import { completeThroughStore } from "../support/store-path.ts";

const docPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/performance.md");
const client = new pg.Client({ connectionString: inject("databaseUrl") });
const db: Queryable = { query: (text, values) => client.query(text, values) };

/** 15:00 in São Paulo today: outside every night window, so the day's rows alone. */
function afternoonMs(): number {
  const today = new Date();
  return Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 18, 0);
}

type Writes = Record<string, { inserted: number; updated: number; deleted: number }>;

/** The table of "What a completed transfer writes": `| \`name\` | 1 inserted, 2 updated | ... |`. */
async function documentedWrites(): Promise<Writes> {
  const doc = await readFile(docPath, "utf8");
  const section = doc.split("## What a completed transfer writes")[1]?.split("\n## ")[0] ?? "";
  const writes: Writes = {};
  for (const match of section.matchAll(/^\| `(\w+)` \| ([^|]+) \|/gm)) {
    const counts = match[2] ?? "";
    const count = (what: string): number => Number(new RegExp(`(\\d+) ${what}`).exec(counts)?.[1] ?? 0);
    writes[match[1] ?? ""] = { inserted: count("inserted"), updated: count("updated"), deleted: count("deleted") };
  }
  return writes;
}

/** The session's counts per table, including the ones it has not published yet. */
async function pendingWrites(): Promise<Writes> {
  const { rows } = await client.query<{ name: string; ins: string; upd: string; del: string }>(
    "SELECT relname AS name, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_del AS del FROM pg_stat_xact_user_tables",
  );
  return Object.fromEntries(rows.map((r) => [r.name, { inserted: Number(r.ins), updated: Number(r.upd), deleted: Number(r.del) }]));
}

beforeAll(() => client.connect());
afterAll(() => client.end());

describe("docs/performance.md: what a completed transfer writes", () => {
  it("lists exactly the rows a transfer opened, sent and completed writes, table by table", async () => {
    const accountId = `rows-${randomUUID().slice(0, 8)}`;
    await client.query("SELECT ledger_create_account($1)", [accountId]);
    await client.query("SELECT ledger_credit($1, $2, 10000)", [`seed:${accountId}`, accountId]);
    const nowMs = afternoonMs();
    await client.query("BEGIN");
    try {
      // The session's counts not yet published include the setup's: only what the steps add counts.
      const before = await pendingWrites();
      await completeThroughStore(db, accountId, 1_000, nowMs);
      const after = await pendingWrites();
      const measured: Writes = {};
      for (const [name, w] of Object.entries(after)) {
        const was = before[name] ?? { inserted: 0, updated: 0, deleted: 0 };
        const delta = { inserted: w.inserted - was.inserted, updated: w.updated - was.updated, deleted: w.deleted - was.deleted };
        if (delta.inserted + delta.updated + delta.deleted > 0) measured[name] = delta;
      }
      expect(measured).toEqual(await documentedWrites());
    } finally {
      await client.query("ROLLBACK");
    }
  });
});
