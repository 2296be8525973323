// Renders `npm run chaos` results as the Markdown table docs/reliability.md quotes: what ran,
// which faults were injected, and the counts that must stay at zero. Input: the fault control
// endpoint's tally (test/support/faults.ts `tally`, the proxy's own counts) and vitest's JSON.
import type { Tally } from "./db-faults/control.ts";

/** The fault proxy's tally, as its control endpoint reports it. */
export type ChaosTally = Tally;

export interface TestSummary {
  passed: number;
  failed: number;
  files: number;
  durationMs: number;
}

export const invariantNames: Record<string, string> = {
  I1: "balances equal entries; transactions and entries sum to zero",
  I2: "no balance, held or available below zero",
  I3: "one hold per transfer, resolved at most once",
  I4: "completed ⇔ settled; compensated ⇔ released/refused/none; review ⇒ held",
  I5: "no stuck saga (every in-flight saga has a next check)",
  I6: "at most one payment per transfer at the provider",
  I7: "never released while the provider paid",
  I8: "every transition justified (provider, saga rules, operator)",
  I9: "entries never changed",
  I10: "one transfer per (account, Idempotency-Key)",
  I11: "every transfer's events are exactly its history",
  I12: "returns within the amount, credited once, listed as credited",
  I13: "a day's new-device usage is what its unregistered devices' transfers hold or settled",
  I14: "a day's and a night's limit usage is what their transfers hold or settled",
  I15: "each recurring occurrence runs at most once on its date, plus its one evening retry",
  I16: "a contestation's returned_cents is its transfer's fraud returns since it was made",
};

/** Proxy counts are by mechanism; these names say what the test saw. */
const proxyFaultNames: Record<string, string> = {
  latency: "db latency windows",
  blackhole: "db blackhole windows",
  reset_connections: "db connections reset",
  blackhole_reset_connections: "db connections reset after a blackhole",
  cut_before: "db statements cut before COMMIT",
  drop_reply: "db replies lost after COMMIT",
};

function prefixed(counters: Record<string, number>, prefix: string): [string, number][] {
  return Object.entries(counters)
    .filter(([name]) => name.startsWith(prefix))
    .map(([name, n]): [string, number] => [name.slice(prefix.length), n])
    .sort(([a], [b]) => a.localeCompare(b));
}

export function faultsByKind(tally: ChaosTally): [string, number][] {
  const fromProxy = Object.entries(tally.injected).map(([kind, n]): [string, number] => [proxyFaultNames[kind] ?? `db ${kind}`, n]);
  const fromTests = prefixed(tally.counters, "fault.").map(([kind, n]): [string, number] => [kind.replaceAll("_", " "), n]);
  return [...fromProxy, ...fromTests].sort(([a], [b]) => a.localeCompare(b));
}

export function violationsByInvariant(tally: ChaosTally): [string, number][] {
  return Object.keys(invariantNames).map((id): [string, number] => [id, tally.counters[`violation.${id}`] ?? 0]);
}

/** Everything that must be zero for the run to pass. */
export function zeroTargets(tally: ChaosTally): [string, number][] {
  const c = tally.counters;
  return [
    ...violationsByInvariant(tally).map(([id, n]): [string, number] => [`violations ${id}`, n]),
    ["wrongful compensations", c.wrongful_compensations ?? 0],
    ["duplicate payments", c.duplicate_payments ?? 0],
    ["stuck sagas", (c.stuck_sagas ?? 0) + (c.stuck_after_drain ?? 0)],
    ["connections left open by dead objects", c.leaked_connections ?? 0],
    ["events undelivered once faults stopped", c.undelivered_events ?? 0],
  ];
}

function row(label: string, value: string | number): string {
  return `| ${label} | ${value} |`;
}

export function renderChaosTable(tally: ChaosTally, tests: TestSummary, meta: { command: string; date: string }): string {
  const c = tally.counters;
  const faults = faultsByKind(tally);
  const outcomes = prefixed(c, "outcome.");
  const drains = prefixed(tally.maxima, "drain_ms.");
  const lines = [
    `Command: \`${meta.command}\` — ${meta.date}`,
    "",
    "| measure | value |",
    "|---|---|",
    row("test files / tests passed / failed", `${tests.files} / ${tests.passed} / ${tests.failed}`),
    row("wall time", `${Math.round(tests.durationMs / 1000)} s`),
    row("runs (model runs + scenario runs)", c.runs ?? 0),
    row("operations (HTTP calls, commands)", c.operations ?? 0),
    row("transfers", c.transfers ?? 0),
    row("invariant checks", c["invariant.checks"] ?? 0),
    row(
      "faults injected (total)",
      faults.reduce((sum, [, n]) => sum + n, 0),
    ),
    ...faults.map(([kind, n]) => row(`&nbsp;&nbsp;fault: ${kind}`, n)),
    ...violationsByInvariant(tally).map(([id, n]) => row(`violations ${id} (${invariantNames[id]})`, n)),
    row("wrongful compensations", c.wrongful_compensations ?? 0),
    row("duplicate payments", c.duplicate_payments ?? 0),
    row("stuck sagas", (c.stuck_sagas ?? 0) + (c.stuck_after_drain ?? 0)),
    row("connections left open by dead objects", c.leaked_connections ?? 0),
    row("5xx answers (each retried)", c["http.5xx"] ?? 0),
    row("&nbsp;&nbsp;of which not 503 with Retry-After (must be 0)", c["http.5xx_not_retryable"] ?? 0),
    row("calls cut by an object abort", c["http.broken"] ?? 0),
    row("429 (the per-account rate limit, a refusal that writes nothing)", c["http.429"] ?? 0),
    ...outcomes.map(([name, n]) => row(`outcome before the operator: ${name}`, n)),
    row("needs_review resolved by the careful operator", c.operator_resolutions ?? 0),
    ...prefixed(c, "released_unsent.").map(([name, n]) =>
      row(`released as not_sent, the provider never had the send: ${name.replaceAll("_", " ")}`, n),
    ),
    row("overdue sagas swept while draining (standing in for the cron sweeper's minute)", c.sweeper_rescues ?? 0),
    ...drains.map(([name, ms]) => row(`time to drain: ${name.replaceAll("_", " ")}`, `${(ms / 1000).toFixed(1)} s`)),
  ];
  return lines.join("\n");
}
