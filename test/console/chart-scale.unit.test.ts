// The charts' value axis and time buckets: round steps, whole ticks, short labels, UTC clocks.
import { describe, expect, it } from "vitest";
import { formatTickDuration, formatTickValue, tickStep, valueTicks } from "../../src/console/charts/scale.ts";
import { bucketed, bucketMinutesFor, clockLabel, labelledIndexes } from "../../src/console/charts/time-buckets.ts";

describe("chart value axis", () => {
  it.each([
    [0, [0, 1]],
    [-3, [0, 1]],
    [Number.NaN, [0, 1]],
    [1, [0, 1]],
    [3, [0, 1, 2, 3]],
    [4, [0, 1, 2, 3, 4]],
    [7, [0, 2, 4, 6, 8]],
    [9, [0, 5, 10]],
    [37, [0, 10, 20, 30, 40]],
    [1_000, [0, 500, 1_000]],
  ])("a maximum of %d gets the ticks %j", (max, ticks) => {
    expect(valueTicks(max)).toEqual(ticks);
  });

  it("keeps to whole steps of 1, 2 or 5 times a power of ten, four steps at most, for huge values too", () => {
    for (const max of [2, 13, 99, 101, 4_321, 987_654, 12_345_678_901, 9e15]) {
      const step = tickStep(max);
      expect(Number.isInteger(step)).toBe(true);
      expect(String(step)).toMatch(/^[125]0*$|^[125]e\+\d+$/);
      const ticks = valueTicks(max);
      expect(ticks.length - 1).toBeLessThanOrEqual(4);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.at(-2)).toBeLessThan(max);
    }
  });

  it.each([
    [0, "0"],
    [950, "950"],
    [1_000, "1k"],
    [12_000, "12k"],
    [2_500_000, "2.5M"],
    [1_234_567_890, "1.23G"],
    [5e12, "5T"],
  ])("writes the tick %d as %s", (value, label) => {
    expect(formatTickValue(value)).toBe(label);
  });

  it.each([
    [0, "0 ms"],
    [450, "450 ms"],
    [2_500, "2.5 s"],
    [60_000, "60 s"],
    [180_000, "3 min"],
  ])("writes the duration tick %d ms as %s", (durationMs, label) => {
    expect(formatTickDuration(durationMs)).toBe(label);
  });
});

describe("chart time buckets", () => {
  const minuteMs = 60_000;
  const start = Date.parse("2026-12-02T14:00:00Z");
  const minutes = (count: number, value = 1) =>
    Array.from({ length: count }, (_, i) => ({ atMs: start + i * minuteMs, values: { a: value, b: i } }));

  it("draws 15 min and 1 h by the minute, and a day in 30-minute bars: never more than 60", () => {
    expect(bucketMinutesFor(1)).toBe(1);
    expect(bucketMinutesFor(15)).toBe(1);
    expect(bucketMinutesFor(60)).toBe(1);
    expect(bucketMinutesFor(61)).toBe(2);
    expect(bucketMinutesFor(1_440)).toBe(30);
    for (const window of [1, 7, 59, 60, 61, 299, 1_000, 1_440]) expect(window / bucketMinutesFor(window)).toBeLessThanOrEqual(60);
  });

  it("sums minutes into clock-aligned buckets, partial at the edges, and keeps every count", () => {
    const points = minutes(1_440).map((p) => ({ ...p, atMs: p.atMs + 7 * minuteMs }));
    const buckets = bucketed(points, 30);
    expect(buckets).toHaveLength(49);
    expect(buckets[0]).toEqual({ atMs: start, values: { a: 23, b: (22 * 23) / 2 } });
    expect(buckets[1]?.atMs).toBe(start + 30 * minuteMs);
    expect(buckets[1]?.values.a).toBe(30);
    expect(buckets.reduce((sum, b) => sum + b.values.a, 0)).toBe(1_440);
    expect(buckets.reduce((sum, b) => sum + b.values.b, 0)).toBe((1_439 * 1_440) / 2);
  });

  it("leaves minutes as they are in one-minute buckets, and answers nothing for nothing", () => {
    expect(bucketed(minutes(3), 1)).toEqual(minutes(3));
    expect(bucketed([], 30)).toEqual([]);
  });

  it("labels the time in UTC, about five labels whatever the count, the first always", () => {
    expect(clockLabel(start + 5 * minuteMs)).toBe("14:05");
    expect(clockLabel(Date.parse("2026-12-02T23:59:59.999Z"))).toBe("23:59");
    expect(labelledIndexes(0)).toEqual([]);
    expect(labelledIndexes(1)).toEqual([0]);
    expect(labelledIndexes(15)).toEqual([0, 3, 6, 9, 12]);
    expect(labelledIndexes(60)).toEqual([0, 12, 24, 36, 48]);
    expect(labelledIndexes(49).length).toBeLessThanOrEqual(5);
  });
});
