// Migrations 0012-0016 on a database made by the baseline before them (0000-0011), holding
// transfers with their history, events in every delivery state, a return's event and a
// contestation's, delivery
// attempts and provider calls as the old tables kept them: after the migrate, every event reads
// the same through transfer_events (ids, sequences, resources, delivery state), the calls the same
// through provider_calls, a replay answers the stored first response, a night's charge is on its
// transfer, and the next event and the next attempt continue where the old rows left off.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { applyMigrations } from "../../scripts/lib/migrate.ts";
import { applyNumberedMigrations } from "../../scripts/lib/numbered-migrations.ts";
import { createMissingFunctions } from "../../scripts/lib/sql-functions/apply.ts";
import { readFunctionSources } from "../../scripts/lib/sql-functions/sources.ts";

const drizzleDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");
/** The baseline before the history became the outbox: 0000_tables .. 0011_recurring_transfer_devices. */
const baselineMigrations = 12;

const name = `outbox_migration_${randomUUID().slice(0, 8)}`;
const admin = new pg.Client({ connectionString: inject("databaseUrl") });
const url = new URL(inject("databaseUrl"));
url.pathname = `/${name}`;
const db = new pg.Client({ connectionString: url.toString() });

const transferId = randomUUID();
const accountId = `outbox-migration-${transferId.slice(0, 8)}`;
const at = (second: number): string => `2026-12-01T12:00:${String(second).padStart(2, "0")}.000Z`;
const resource = (state: string, states: string[]) => ({
  id: transferId,
  state,
  amount_cents: 1_000,
  history: states.map((s) => ({ state: s })),
});
/** As the old outbox held them: one event per hop (history_id), a return's and a contestation's without one. */
const oldEvents = [
  { id: "evt_started", sequence: 1, history: 1, state: "started", delivered: true },
  { id: "evt_reserved", sequence: 2, history: 2, state: "funds_reserved", delivered: true },
  { id: "evt_submitted", sequence: 3, history: 3, state: "submitted", delivered: false, parked: true },
  { id: "evt_completed", sequence: 4, history: 4, state: "completed", delivered: false },
  { id: "evt_returned", sequence: 5, history: null, state: "completed", delivered: false },
  { id: "evt_contested", sequence: 6, history: null, state: "completed", delivered: false, contestation: true },
];
const hops = ["started", "funds_reserved", "submitted", "completed"];

interface EventRow {
  id: string;
  sequence: number;
  type: string;
  data: unknown;
  attempts: number;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  parked_at: Date | null;
}

async function events(): Promise<EventRow[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT id, sequence, type, data, attempts, next_attempt_at, delivered_at, parked_at
       FROM transfer_events WHERE transfer_id = $1 ORDER BY sequence`,
    [transferId],
  );
  return rows;
}

async function calls(): Promise<unknown[]> {
  const { rows } = await db.query(
    "SELECT id::int, kind, outcome, http_status, duration_ms FROM provider_calls WHERE transfer_id = $1 ORDER BY id",
    [transferId],
  );
  return rows;
}

/** The baseline's schema, then rows written as its functions wrote them (triggers off: the old ones are gone). */
async function seedBaseline(): Promise<void> {
  const sources = await readFunctionSources(path.join(drizzleDir, "functions"));
  await db.query("BEGIN");
  await createMissingFunctions(db, sources);
  await applyNumberedMigrations(db, readMigrationFiles({ migrationsFolder: drizzleDir }).slice(0, baselineMigrations));
  await db.query("COMMIT");
  await db.query("BEGIN");
  await db.query("SET LOCAL session_replication_role = replica");
  await db.query("INSERT INTO accounts (id, kind, balance_cents) VALUES ($1, 'customer', 0)", [accountId]);
  await db.query(
    `INSERT INTO transfers (id, account_id, amount_cents, pix_key, pix_key_type, state, idempotency_key, request_fingerprint,
                            first_response, deadline_at, created_at, updated_at, returned_cents)
     VALUES ($1, $2, 1000, 'a@b.test', 'email', 'completed', 'key-1', 'fp', $3, $4, $5, $6, 100)`,
    [transferId, accountId, JSON.stringify(resource("funds_reserved", hops.slice(0, 2))), at(59), at(0), at(3)],
  );
  for (const [i, hop] of hops.entries()) {
    await db.query(
      "INSERT INTO transfer_history (id, transfer_id, from_state, to_state, at, actor) VALUES ($1, $2, $3, $4, $5, 'saga')",
      // The open's two hops share its transaction's time, the transfer's created_at.
      [i + 1, transferId, hops[i - 1] ?? null, hop, at(i < 2 ? 0 : i)],
    );
  }
  for (const event of oldEvents) {
    await db.query(
      `INSERT INTO transfer_events (id, transfer_id, sequence, type, history_id, occurred_at, data, attempts, next_attempt_at,
                                    delivered_at, parked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        event.id,
        transferId,
        event.sequence,
        event.history !== null ? "transfer.updated" : event.contestation ? "contestation.updated" : "transfer.returned",
        event.history,
        at(event.sequence),
        JSON.stringify(resource(event.state, hops.slice(0, event.history ?? hops.length))),
        event.delivered ? 1 : event.parked ? 9 : 0,
        event.delivered || event.parked ? null : at(event.sequence),
        event.delivered ? at(30) : null,
        event.parked ? at(40) : null,
      ],
    );
  }
  await db.query("INSERT INTO transfer_event_attempts (event_id, http_status, duration_ms) VALUES ('evt_started', 204, 5)");
  await db.query("INSERT INTO night_usage_charges (transfer_id, evening) VALUES ($1, '2026-11-30')", [transferId]);
  await db.query(
    `INSERT INTO provider_calls (id, transfer_id, kind, at, outcome, http_status, duration_ms)
     VALUES (7, $1, 'send', $2, 'accepted', 201, 40), (8, $1, 'status', $3, 'confirmed', 200, 30)`,
    [transferId, at(2), at(3)],
  );
  await db.query("COMMIT");
}

beforeAll(async () => {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await db.connect();
  await seedBaseline();
});

afterAll(async () => {
  await db.end();
  await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  await admin.end();
});

describe("migrating a baseline database to the history as the outbox", () => {
  it("keeps every event, its delivery state and attempts, the provider calls and the first response", async () => {
    const eventsBefore = await events();
    const callsBefore = await calls();
    expect(eventsBefore).toHaveLength(oldEvents.length);

    const result = await applyMigrations(url.toString());
    expect(result.migrationsApplied).toBeGreaterThanOrEqual(4);

    expect(await events()).toEqual(eventsBefore);
    expect(await calls()).toEqual(callsBefore);
    const { rows: attempts } = await db.query("SELECT event_id, http_status FROM transfer_event_attempts");
    expect(attempts).toEqual([{ event_id: "evt_started", http_status: 204 }]);
    const { rows: replay } = await db.query<{ response: unknown }>(
      "SELECT transfer_open_response(t) AS response FROM transfers t WHERE id = $1",
      [transferId],
    );
    expect(replay).toEqual([{ response: resource("funds_reserved", hops.slice(0, 2)) }]);
    const { rows: night } = await db.query("SELECT night_evening::text FROM transfers WHERE id = $1", [transferId]);
    expect(night).toEqual([{ night_evening: "2026-11-30" }]);
    // Only the delivery backlog is pending: the undelivered, unparked events, oldest first.
    const { rows: backlog } = await db.query<{ id: string }>(
      "SELECT id FROM transfer_events WHERE delivered_at IS NULL AND parked_at IS NULL ORDER BY sequence",
    );
    expect(backlog.map((row) => row.id)).toEqual(["evt_completed", "evt_returned", "evt_contested"]);
  });

  it("continues the old rows: the next event takes the next sequence, a delivery moves a migrated event", async () => {
    await db.query("SELECT transfer_event_insert($1, 'contestation.updated', NULL, now(), '{}')", [transferId]);
    const { rows } = await db.query<{ sequence: number }>("SELECT sequence FROM transfer_events WHERE transfer_id = $1 ORDER BY sequence", [
      transferId,
    ]);
    expect(rows.map((row) => row.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const { rows: moved } = await db.query<{ result: { outcome: string } }>(
      "SELECT transfer_event_attempted('evt_completed', 0, 204, 3, NULL, 'delivered', NULL) AS result",
    );
    expect(moved).toEqual([{ result: { outcome: "recorded" } }]);
    const { rows: delivered } = await db.query<{ delivered: boolean }>(
      "SELECT delivered_at IS NOT NULL AS delivered FROM transfer_events WHERE id = 'evt_completed'",
    );
    expect(delivered).toEqual([{ delivered: true }]);
  });
});
