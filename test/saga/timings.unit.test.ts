// Saga timings: defaults, parsing and bounds of the environment variables, and the backoff.
import { describe, expect, it } from "vitest";
import { readSagaTimings, type TimingSource } from "../../src/config/saga-timings.ts";
import { checkDelayMs, type SagaTimings } from "../../src/saga/timings.ts";

const dayMs = 24 * 60 * 60 * 1000;

describe("readSagaTimings", () => {
  it("uses the defaults when nothing is set", () => {
    expect(readSagaTimings({})).toEqual({
      firstCheckDelayMs: 30_000,
      checkDelayMsMax: 900_000,
      deadlineMs: 7_200_000,
      notFoundGraceMs: 300_000,
    });
  });

  const source: Required<TimingSource> = {
    SAGA_FIRST_CHECK_MS: "150",
    SAGA_MAX_CHECK_MS: "600",
    SAGA_DEADLINE_MS: "4000",
    PROVIDER_NOT_FOUND_GRACE_MS: "1200",
  };

  it.each(["", "  ", "\t"])("treats %j as unset in every variable", (blank) => {
    const blanks = Object.fromEntries(Object.keys(source).map((name) => [name, blank]));
    expect(readSagaTimings(blanks)).toEqual(readSagaTimings({}));
  });

  it("parses every variable into its field", () => {
    expect(readSagaTimings(source)).toEqual({ firstCheckDelayMs: 150, checkDelayMsMax: 600, deadlineMs: 4000, notFoundGraceMs: 1200 });
  });

  it("accepts surrounding whitespace around a number", () => {
    expect(readSagaTimings({ SAGA_FIRST_CHECK_MS: " 150 " }).firstCheckDelayMs).toBe(150);
  });

  it("accepts max equal to first (a constant check interval)", () => {
    expect(readSagaTimings({ SAGA_FIRST_CHECK_MS: "500", SAGA_MAX_CHECK_MS: "500" })).toMatchObject({
      firstCheckDelayMs: 500,
      checkDelayMsMax: 500,
    });
  });

  it("accepts a zero not-found grace window", () => {
    expect(readSagaTimings({ PROVIDER_NOT_FOUND_GRACE_MS: "0" }).notFoundGraceMs).toBe(0);
  });

  // Each bound, inclusive at both ends. Others stay at defaults, so max >= first must still hold.
  it.each<{ name: keyof TimingSource; field: keyof SagaTimings; min: number; max: number; others: TimingSource }>([
    { name: "SAGA_FIRST_CHECK_MS", field: "firstCheckDelayMs", min: 10, max: dayMs, others: { SAGA_MAX_CHECK_MS: String(dayMs) } },
    { name: "SAGA_MAX_CHECK_MS", field: "checkDelayMsMax", min: 10, max: dayMs, others: { SAGA_FIRST_CHECK_MS: "10" } },
    { name: "SAGA_DEADLINE_MS", field: "deadlineMs", min: 100, max: 30 * dayMs, others: {} },
    { name: "PROVIDER_NOT_FOUND_GRACE_MS", field: "notFoundGraceMs", min: 0, max: dayMs, others: {} },
  ])("bounds $name to [$min, $max], inclusive, and names it when out of range", ({ name, field, min, max, others }) => {
    expect(readSagaTimings({ ...others, [name]: String(min) })[field]).toBe(min);
    expect(readSagaTimings({ ...others, [name]: String(max) })[field]).toBe(max);
    const message = `configuration: ${name} must be an integer from ${min} to ${max}`;
    expect(() => readSagaTimings({ ...others, [name]: String(min - 1) })).toThrow(message);
    expect(() => readSagaTimings({ ...others, [name]: String(max + 1) })).toThrow(message);
  });

  it.each(["1.5", "-1", "-30000", "abc", "30s", "1e400", "9007199254740993", "NaN", "Infinity", "0x", "1,000"])(
    "rejects %j for every variable, naming the variable and quoting the value",
    (raw) => {
      for (const name of ["SAGA_FIRST_CHECK_MS", "SAGA_MAX_CHECK_MS", "SAGA_DEADLINE_MS", "PROVIDER_NOT_FOUND_GRACE_MS"] as const) {
        expect(() => readSagaTimings({ [name]: raw })).toThrow(`configuration: ${name} must be an integer`);
        expect(() => readSagaTimings({ [name]: raw })).toThrow(`got ${JSON.stringify(raw)}`);
      }
    },
  );

  it("rejects a max check delay below the first, naming both variables", () => {
    expect(() => readSagaTimings({ SAGA_FIRST_CHECK_MS: "1000", SAGA_MAX_CHECK_MS: "999" })).toThrow(
      "configuration: SAGA_MAX_CHECK_MS must be at least SAGA_FIRST_CHECK_MS",
    );
  });

  it("rejects a default max below a configured first", () => {
    expect(() => readSagaTimings({ SAGA_FIRST_CHECK_MS: "900001" })).toThrow("SAGA_MAX_CHECK_MS must be at least SAGA_FIRST_CHECK_MS");
  });
});

describe("checkDelayMs", () => {
  const timingSets: SagaTimings[] = [
    readSagaTimings({}),
    readSagaTimings({ SAGA_FIRST_CHECK_MS: "150", SAGA_MAX_CHECK_MS: "600" }),
    readSagaTimings({ SAGA_FIRST_CHECK_MS: "10", SAGA_MAX_CHECK_MS: String(dayMs) }),
    readSagaTimings({ SAGA_FIRST_CHECK_MS: "500", SAGA_MAX_CHECK_MS: "500" }),
    readSagaTimings({ SAGA_FIRST_CHECK_MS: String(dayMs), SAGA_MAX_CHECK_MS: String(dayMs) }),
  ];
  const checks = Array.from({ length: 41 }, (_, n) => n);

  it.each(timingSets)("is min(first * 2^n, max) for n = 0..40 (first $firstCheckDelayMs, max $checkDelayMsMax)", (timings) => {
    for (const n of checks) {
      // The expectation avoids 2 ** n: it doubles until the cap, so it cannot overflow.
      let expected = timings.firstCheckDelayMs;
      for (let i = 0; i < n && expected < timings.checkDelayMsMax; i += 1) expected *= 2;
      expected = Math.min(expected, timings.checkDelayMsMax);
      const actual = checkDelayMs(n, timings);
      expect(actual, `n = ${n}`).toBe(expected);
      expect(Number.isSafeInteger(actual), `n = ${n}`).toBe(true);
    }
  });

  it("doubles from the first delay with the defaults: 30s, 60s, 120s, 240s, 480s, then 900s", () => {
    const timings = readSagaTimings({});
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((n) => checkDelayMs(n, timings))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000, 900_000,
    ]);
  });

  it("never grows without bound, never yields NaN or Infinity, and never decreases", () => {
    const timings = readSagaTimings({ SAGA_FIRST_CHECK_MS: "150", SAGA_MAX_CHECK_MS: "600" });
    let previous = 0;
    for (const n of [...checks, 100, 1023, 1024, 1100, 10_000, Number.MAX_SAFE_INTEGER]) {
      const delay = checkDelayMs(n, timings);
      expect(Number.isFinite(delay), `n = ${n}`).toBe(true);
      expect(delay, `n = ${n}`).toBeLessThanOrEqual(600);
      expect(delay, `n = ${n}`).toBeGreaterThanOrEqual(previous);
      previous = delay;
    }
    expect(previous).toBe(600);
  });
});
