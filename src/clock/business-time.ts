// Business time (CONTRACT §4 "Test clock"): the instant every calendar rule is decided at (São
// Paulo days and night windows, limit increases' 24 h, schedules, returns' and contestations'
// windows). It is the wall clock, plus the test clock's offset when the sandbox is on. The saga's
// own timings (backoff, deadline, grace, provider timeout) and event retries stay on Date.now().
//
// No cache: an advance must be seen by the very next request anywhere, the Worker's isolates and
// every Durable Object alike, and nothing tells an isolate that another one advanced the clock.
// A cache checked against a version would cost the same round trip as reading the offset itself.
// The cost, one single-row primary-key SELECT per decision over Neon's HTTP path, is paid only
// with the sandbox on; off, the offset is never read (CONTRACT §1: test seams exist only then).
import type { Queryable } from "../db/queryable.ts";

/**
 * What business time needs of the configuration (a Config fits): whether the sandbox is on.
 * Written out rather than picked from Config, so that Node programs (bench, scripts) can import
 * the saga's runtime without the Worker's Env type that Config is parsed from.
 */
export interface ClockConfig {
  sandboxEnabled: boolean;
}

/** The wall clock plus the test clock's offset with the sandbox on; the wall clock alone otherwise, without a query. */
export async function businessNowMs(db: Queryable, config: ClockConfig): Promise<number> {
  return Date.now() + (await businessOffsetMs(db, config));
}

/**
 * How far business time is ahead of the wall clock: what turns a business instant into the wall
 * instant an alarm is set at. 0 with the sandbox off, without a query.
 */
export async function businessOffsetMs(db: Queryable, config: ClockConfig): Promise<number> {
  return config.sandboxEnabled ? testClockOffsetMs(db) : 0;
}

/** How far the test clock is ahead of the wall clock; 0 before its first advance. */
export async function testClockOffsetMs(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ offset_ms: string }>("SELECT offset_ms FROM test_clock WHERE singleton");
  return rows[0] === undefined ? 0 : Number(rows[0].offset_ms);
}

/**
 * How far the test clock has moved since the wall instant `sinceMs` (a recorded instant, like a
 * completion's): business time elapsed since it is the wall time elapsed plus this. Today's
 * offset less the one in force then, from the log of advances (test_clock_business_at, the
 * function a contestation's 80 days use), in one statement. 0 with the sandbox off, without a query.
 */
export async function clockAdvancedSinceMs(db: Queryable, config: ClockConfig, sinceMs: number): Promise<number> {
  if (!config.sandboxEnabled) return 0;
  const { rows } = await db.query<{ advanced_ms: string }>(
    `SELECT (extract(epoch FROM test_clock_offset() - (test_clock_business_at(since) - since)) * 1000)::bigint AS advanced_ms
       FROM ms_to_timestamptz($1) AS since`,
    [sinceMs],
  );
  return Number(rows[0]?.advanced_ms ?? 0);
}
