// Invariants as assertions for chaos scenarios: every violation is tallied by invariant (the
// chaos table's "target 0" columns) and then fails the test with the whole list.
import type { Pool } from "@neondatabase/serverless";
import { expect } from "vitest";
import { tally } from "../../support/faults.ts";
import { checkInvariants, type InvariantOptions, type Violation } from "../../support/invariants.ts";
import { expectEventsDelivered } from "./events.ts";

/** How long delivery may take to catch up once faults stop: retries back off from 100 ms here. */
const eventsDrainMsMax = 60_000;

/** The counters a list of violations adds to the chaos table. */
export function violationCounters(violations: readonly Violation[]): Record<string, number> {
  const counters: Record<string, number> = { "invariant.checks": 1 };
  for (const v of violations) {
    counters[`violation.${v.invariant}`] = (counters[`violation.${v.invariant}`] ?? 0) + 1;
    if (v.invariant === "I7" && v.detail.startsWith("released"))
      counters.wrongful_compensations = (counters.wrongful_compensations ?? 0) + 1;
    if (v.invariant === "I6") counters.duplicate_payments = (counters.duplicate_payments ?? 0) + 1;
    if (v.invariant === "I5") counters.stuck_sagas = (counters.stuck_sagas ?? 0) + 1;
  }
  return counters;
}

/**
 * Checks the invariants once the faults are over; for a scenario scoped to accounts, first waits
 * until every event of their transfers is delivered, in order (test/chaos/support/events.ts).
 */
export async function expectInvariants(pool: Pool, options: InvariantOptions, when: string): Promise<void> {
  if (options.accountIds && options.within === undefined)
    await expectEventsDelivered(pool, options.accountIds, { timeoutMs: eventsDrainMsMax, rescueAfterMs: 2_000, when });
  const violations = await checkInvariants(pool, options);
  await tally(violationCounters(violations));
  expect(violations, `invariants ${when}`).toEqual([]);
}
