// Every project function runs with its own settings, whatever the caller's session has:
// `search_path` pinned (a table or function name in a body always means ours: another schema or
// pg_temp earlier on a session's path cannot stand in for it), and `lock_timeout` on every
// function that writes or locks rows, so that a wait behind a stuck transaction ends as a fault
// the caller retries rather than holding a connection and its own locks forever.
import { beforeAll, describe, expect, it } from "vitest";
import { filePool } from "../support/pool-test.ts";

const pool = filePool(1);

/** A body that can wait on a row lock: a write (each takes row or key locks) or an explicit lock. */
const writesOrLocks =
  /\bFOR\s+(NO\s+KEY\s+)?UPDATE\b|\bFOR\s+(KEY\s+)?SHARE\b|\bUPDATE\s+[a-z_]+\s+(AS\s+\w+\s+)?SET\b|\bDELETE\s+FROM\b|\bINSERT\s+INTO\b|pg_advisory/i;

interface ProjectFunction {
  name: string;
  body: string;
  settings: string[];
}

let functions: ProjectFunction[];
beforeAll(async () => {
  const { rows } = await pool.query<ProjectFunction>(
    `SELECT p.proname AS name, p.prosrc AS body, coalesce(p.proconfig, '{}') AS settings
       FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace AND p.prokind = 'f'
        -- An extension's functions are its own (as in functions-drift.test.ts).
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
      ORDER BY p.proname`,
  );
  functions = rows;
});

/**
 * One-expression helpers PostgreSQL inlines into their callers' plans (a function with a SET
 * clause is never inlined, and each call of one costs a function call of its own; a transfer
 * makes dozens). They go unpinned on one condition: nothing in them is looked up on a path, every
 * call names pg_catalog and no table is read.
 */
const inlinedHelpers = ["epoch_ms", "history_client_code", "ms_to_timestamptz", "rfc3339"];
/** A name called as a function, not after `pg_catalog.`; CASE and the casts are syntax, not calls. */
const unqualifiedCall =
  /(?<!pg_catalog\.)\b(?!(?:CASE|WHEN|THEN|ELSE|END|AND|OR|NOT|IN|IS|NULL|SELECT|bigint|text)\b)[a-z_][a-z0-9_]*\s*\(/gi;

describe("the project's SQL functions", () => {
  it("pin search_path to public, then pg_temp, every one but the inlined helpers", () => {
    expect(functions.length).toBeGreaterThan(40);
    const unpinned = functions.filter((f) => !f.settings.includes("search_path=public, pg_temp")).map((f) => f.name);
    expect(unpinned).toEqual(inlinedHelpers);
  });

  it("keep the inlined helpers free of settings, of tables and of calls found on a path", () => {
    for (const helper of functions.filter((f) => inlinedHelpers.includes(f.name))) {
      expect({ name: helper.name, settings: helper.settings }).toEqual({ name: helper.name, settings: [] });
      expect({ name: helper.name, readsATable: /\bFROM\b/i.test(helper.body) }).toEqual({ name: helper.name, readsATable: false });
      expect({ name: helper.name, calls: helper.body.match(unqualifiedCall) ?? [] }).toEqual({ name: helper.name, calls: [] });
    }
  });

  it("bound every lock wait: lock_timeout on each function that writes or locks rows", () => {
    const lockers = functions.filter((f) => writesOrLocks.test(f.body));
    // The pattern finds what it must: the ledger, the saga's writes, the operators' credits.
    expect(lockers.map((f) => f.name)).toEqual(
      expect.arrayContaining(["ledger_hold", "ledger_credit", "transfer_apply", "transfer_open", "ops_credit", "ops_approve_credit"]),
    );
    const unbounded = lockers.filter((f) => !f.settings.includes("lock_timeout=5s")).map((f) => f.name);
    expect(unbounded).toEqual([]);
  });
});
